import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { GuideSummaryResponseDto } from '@rc/guides-http';
import { ImageResponseDto } from '@rc/shared-http';

// Documentation of the search bodies (reference §2.8, §3.17). The controller builds the bodies;
// these classes only describe them for OpenAPI.

export class WikiSearchResultDto {
  @ApiProperty({ enum: ['wiki'] }) dataType!: 'wiki';
  @ApiProperty({ type: 'integer' }) wikiid!: number;
  @ApiProperty({ enum: ['CATEGORY', 'WIKI', 'INFO', 'ITEM'] }) namespace!: string;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiProperty({ example: 'iPhone 12' }) title!: string;
  @ApiProperty() display_title!: string;
  @ApiProperty({ description: "The page's short description" }) summary!: string;
  @ApiProperty({ description: "The start of the page's text, markup dropped (the description when the page has no text)" }) text!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ description: 'UNIX seconds' }) modified_date!: number;
  @ApiProperty({ description: 'Author userid (0 when unknown)' }) author!: number;
  @ApiProperty({ type: ImageResponseDto, nullable: true }) image!: ImageResponseDto | null;
}

const RESULT = {
  oneOf: [{ $ref: getSchemaPath(GuideSummaryResponseDto) }, { $ref: getSchemaPath(WikiSearchResultDto) }],
  discriminator: { propertyName: 'dataType', mapping: { guide: getSchemaPath(GuideSummaryResponseDto), wiki: getSchemaPath(WikiSearchResultDto) } },
};

export class SearchResponseDto {
  @ApiProperty({ description: 'The query, as received' }) search!: string;
  @ApiProperty({ description: 'The page size used (at most 200)' }) limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty({ description: 'Number of all matches of the requested types' }) totalResults!: number;
  @ApiProperty({ description: 'offset + results returned < totalResults' }) moreResults!: boolean;
  @ApiProperty({ type: 'array', items: RESULT, description: 'Guides (GuideSummary) and wiki pages, best match first' }) results!: unknown[];
}

export class SuggestResponseDto {
  @ApiProperty({ description: 'The query, as received' }) query!: string;
  @ApiProperty({ type: 'array', items: RESULT, maxItems: 10, description: 'At most 10, shared between the doctypes, grouped in the order they were asked' }) results!: unknown[];
}
