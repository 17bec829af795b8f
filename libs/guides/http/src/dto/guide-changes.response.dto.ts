import { ApiProperty } from '@nestjs/swagger';
import { GuideSummaryResponseDto } from './guide.response.dto.js';

/** A guide that was public and no longer is: a copy made before `date` must remove it. */
export class GuideTombstoneResponseDto {
  @ApiProperty({ type: 'integer', example: 42 }) guideid!: number;
  @ApiProperty({ description: 'Its title when it was hidden (its archive path is made from it)', example: 'iPhone 12 Battery Replacement' }) title!: string;
  @ApiProperty({ description: 'Its category when it was hidden', example: 'iPhone 12' }) category!: string;
  @ApiProperty({ enum: ['deleted', 'private'] }) reason!: 'deleted' | 'private';
  @ApiProperty({ description: 'When it was deleted or made private (UNIX seconds)', example: 1764000000 }) date!: number;
}

/** `GET /guides?modifiedSince=…&includeDeleted`: the guides changed since then, and those removed since then. */
export class GuideChangesResponseDto {
  @ApiProperty({ type: [GuideSummaryResponseDto], description: 'Public guides modified since then (the page asked for)' }) guides!: GuideSummaryResponseDto[];
  @ApiProperty({ type: [GuideTombstoneResponseDto], description: 'Guides deleted or made private since then and not public again, by id, paged with the same `limit` and `offset`' })
  deleted!: GuideTombstoneResponseDto[];
}
