import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { SummaryOfChange } from '@rc/shared-http';
import { SCHEDULE_STATUSES, TRIGGER_TYPES } from '@rc/catalog-domain';

// The classes declare the shape of each body (types, nested rows, enums); only the field names are
// checked here (an unknown field is a 422): the catalog domain checks the values, nested rows
// included, with its own messages (so no `@ValidateNested`, whose messages would come first).

const NAMESPACES = ['CATEGORY', 'WIKI', 'INFO', 'ITEM', 'USER', 'TEAM'] as const;

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

/** A supplier of an ITEM page's part. */
export class WikiSupplierDto {
  @ApiPropertyOptional({ description: 'Up to 255 characters', example: 'IF315-012' }) 'part_#'?: string;
  @ApiPropertyOptional({ description: 'Up to 255 characters', example: 'OEM' }) type?: string;
  @ApiProperty({ description: '1 to 255 characters', example: 'Example Parts Ltd' }) supplier!: string;
  @ApiPropertyOptional({ description: 'An http(s) URL, or empty', example: 'https://parts.example.com/battery' }) url?: string;
}

/** When a maintenance task is due (reference §3.16). */
export class MaintenanceTriggerDto {
  @ApiProperty({ enum: TRIGGER_TYPES, example: 'time' }) trigger_type!: (typeof TRIGGER_TYPES)[number];
  @ApiPropertyOptional({ maxLength: 64, example: 'age' }) metric?: string;
  @ApiPropertyOptional({ maxLength: 64, example: 'months' }) unit?: string;
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, example: 12 }) first_interval?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, example: 12 }) repeat_interval?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, enum: ['<', '<=', '=', '>=', '>'], example: null }) comparator?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, example: null }) threshold?: number | null;
}

/** A maintenance task of a CATEGORY page. */
export class MaintenanceScheduleDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Keeps the id of one of the page's schedules; omitted: a new schedule" }) wiki_maintenance_scheduleid?: number;
  @ApiProperty({ description: '1 to 255 characters', example: 'Replace the battery' }) task!: string;
  @ApiPropertyOptional({ enum: SCHEDULE_STATUSES, default: 'active', example: 'active' }) status?: (typeof SCHEDULE_STATUSES)[number];
  @ApiPropertyOptional({ type: [MaintenanceTriggerDto], maxItems: 10 }) triggers?: MaintenanceTriggerDto[];
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, example: null }) guideid?: number | null;
  @ApiPropertyOptional({ type: [String], maxItems: 50, example: ['Battery'] }) parts?: string[];
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
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, description: 'The browser/page heading title (null: the display title)', example: 'iPhone 13 Repair' }) @Allow() page_title?: string | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10, nullable: true, description: 'CATEGORY only', example: 7 }) @Allow() repairability_score?: number | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'The revision the page was translated from: kept as written (this service keeps one language)', example: null })
  @Allow()
  source_revisionid?: number | null;
  @ApiPropertyOptional({ type: [WikiSupplierDto], maxItems: 50, description: 'ITEM only (an empty list is accepted anywhere); a full replacement', example: [] }) @Allow() suppliers?: WikiSupplierDto[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    maxItems: 50,
    description: 'CATEGORY only (an empty list is accepted anywhere): document ids (or `{documentid}` objects), read back as `[{documentid}]`; a full replacement',
    example: [],
  })
  @Allow()
  documents?: number[];
  @ApiPropertyOptional({ type: [MaintenanceScheduleDto], maxItems: 50, description: 'CATEGORY only (an empty list is accepted anywhere); a full replacement' }) @Allow() maintenance_schedule?: MaintenanceScheduleDto[];
  @ApiPropertyOptional({ description: 'Whether clients show a table of contents', example: false }) @Allow() table_of_contents?: boolean;
}

export class WikiCreateDto extends WikiEditDto {
  @ApiPropertyOptional({ enum: NAMESPACES, description: 'Required', example: 'CATEGORY' }) @Allow() namespace?: (typeof NAMESPACES)[number];
  @ApiPropertyOptional({ description: 'Required; unique in the namespace', example: 'iPhone 13' }) @Allow() title?: string;
}

export class WikiTagDto {
  @ApiPropertyOptional({ example: 'battery' }) @Allow() tag?: string;
}
