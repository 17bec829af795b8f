import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

// Documentation of the objects several contexts embed (reference §3.1 Image, §3.2 UserSummary):
// the presenters build them; these classes only describe them for OpenAPI.

const EXAMPLE_IMAGE = 'https://repair.example/api/2.0/igi/kX3pQ9zLm2VwR7tY';

/**
 * The Image object (reference §3.1): the sizes made so far (a size not made yet is left out, as
 * the original service does: they appear within seconds of the upload) and `original` always.
 */
export class ImageResponseDto {
  @ApiProperty({ type: 'integer', example: 42 }) id!: number;
  @ApiProperty({ example: 'kX3pQ9zLm2VwR7tY' }) guid!: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.mini`, description: 'About 56 px wide' }) mini?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.thumbnail`, description: 'About 96 px wide' }) thumbnail?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.140x105`, description: 'Exactly 140×105' }) '140x105'?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.200x150`, description: 'Exactly 200×150' }) '200x150'?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.standard`, description: 'About 300 px wide' }) standard?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.440x330`, description: 'Exactly 440×330' }) '440x330'?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.medium`, description: 'About 592 px wide' }) medium?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.large`, description: 'About 800 px wide' }) large?: string;
  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_IMAGE}.huge`, description: 'About 1600 px wide' }) huge?: string;
  @ApiProperty({ format: 'uri', example: `${EXAMPLE_IMAGE}.full`, description: 'The full image' }) original!: string;
}

export class UserSummaryResponseDto {
  @ApiProperty({ type: 'integer' }) userid!: number;
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
