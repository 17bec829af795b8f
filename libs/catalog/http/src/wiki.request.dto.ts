import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { SummaryOfChange } from '@rc/shared-http';

// The classes declare the shape of each body (types, nested rows, enums); only the field names are
// checked here (an unknown field is a 422): the catalog domain checks the values, nested rows
// included, with its own messages (so no `@ValidateNested`, whose messages would come first).

const NAMESPACES = ['CATEGORY', 'WIKI', 'INFO', 'ITEM'] as const;

/** A row of a page's info box. */
export class WikiInfoRowDto {
  @ApiProperty({ description: 'Up to 255 characters', example: 'Release date' }) name!: string;
  @ApiProperty({ description: 'Up to 2000 characters', example: '2020' }) value!: string;
}

/** A page named by its namespace and title. */
export class WikiRefDto {
  @ApiProperty({ enum: NAMESPACES, example: 'CATEGORY' }) namespace!: (typeof NAMESPACES)[number];
  @ApiProperty({ example: 'iPhone 12' }) title!: string;
}

@ApiExtraModels(WikiRefDto)
export class WikiEditDto {
  @ApiPropertyOptional({ description: 'Wiki markup (write name; reads show contents_raw/contents_rendered)', example: 'All about the iPhone 13.' }) @Allow() contents?: string;
  @ApiPropertyOptional({ example: 'iPhone 13' }) @Allow() display_title?: string;
  @ApiPropertyOptional({ example: 'Apple smartphone released in 2021.' }) @Allow() description?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'Image id, or null', example: null }) @Allow() image?: number | null;
  @ApiPropertyOptional({ type: [String], example: [] }) @Allow() flags?: string[];
  @ApiPropertyOptional({ description: 'Info box rows, a full replacement', type: [WikiInfoRowDto], maxItems: 50 }) @Allow() info?: WikiInfoRowDto[];
  @ApiPropertyOptional({ description: 'CATEGORY only: the parent category title (null = a root). Moves that would make a cycle are refused.', type: String, nullable: true, example: null })
  @Allow()
  parent?: string | null;
  @ApiPropertyOptional({
    description:
      'Related pages (read back as related_wikis), a full replacement: at most 50 titles of pages of the same namespace, or {namespace, title} objects; each newly named page must exist. null or [] clears them.',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: getSchemaPath(WikiRefDto) }] },
    maxItems: 50,
    nullable: true,
    example: [],
  })
  @Allow()
  related?: (string | WikiRefDto)[] | null;
  @SummaryOfChange() summary_of_change?: string;
}

export class WikiCreateDto extends WikiEditDto {
  @ApiPropertyOptional({ enum: NAMESPACES, description: 'Required', example: 'CATEGORY' }) @Allow() namespace?: (typeof NAMESPACES)[number];
  @ApiPropertyOptional({ description: 'Required; unique in the namespace', example: 'iPhone 13' }) @Allow() title?: string;
}

export class WikiTagDto {
  @ApiPropertyOptional({ example: 'battery' }) @Allow() tag?: string;
}
