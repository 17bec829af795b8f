import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

// Documentation of the objects several contexts embed (reference §3.1 Image, §3.2 UserSummary):
// the presenters build them; these classes only describe them for OpenAPI.

export class ImageResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty() guid!: string;
  @ApiPropertyOptional({ format: 'uri' }) mini?: string;
  @ApiPropertyOptional({ format: 'uri' }) thumbnail?: string;
  @ApiPropertyOptional({ format: 'uri' }) standard?: string;
  @ApiPropertyOptional({ format: 'uri' }) medium?: string;
  @ApiPropertyOptional({ format: 'uri' }) large?: string;
  @ApiProperty({ format: 'uri' }) original!: string;
}

export class UserSummaryResponseDto {
  @ApiProperty() userid!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ nullable: true, type: String }) unique_username!: string | null;
  @ApiProperty({ description: 'UNIX seconds' }) join_date!: number;
  @ApiProperty({ type: ImageResponseDto, nullable: true }) image!: ImageResponseDto | null;
  @ApiProperty() reputation!: number;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ type: [Number] }) teams!: number[];
}

/** A stored value of a changed field (history diffs): text, a number, a flag, null, a list, or an object of such values. */
export function storedValueProperty(description: string): ApiPropertyOptions {
  // OpenAPI 3.0 has no null type: null is the string member's `nullable`.
  const scalar = () => [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }];
  const object = () => ({ type: 'object', additionalProperties: { oneOf: scalar() } });
  return { description, oneOf: [...scalar(), { type: 'array', items: { oneOf: [...scalar(), object()] } }, object()] };
}
