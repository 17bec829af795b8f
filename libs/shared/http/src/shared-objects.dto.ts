import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
