import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { NAMESPACES, SCHEDULE_STATUSES, TRIGGER_TYPES } from '@rc/catalog-domain';
import { ImageResponseDto, UserSummaryResponseDto } from '@rc/shared-http';

// Documentation of the catalog's bodies (reference §3.9–§3.11, §3.16). The presenters build the
// bodies; these classes only describe them for OpenAPI.

/**
 * A category's guides are the guides context's GuideSummary bodies: named by the schema the guides'
 * adapter registers (this library may not import it), so the document has one GuideSummary.
 */
const GUIDE_SUMMARY = { $ref: '#/components/schemas/GuideSummaryResponseDto' };

const EXAMPLE_IMAGE = { id: 12, guid: 'Hs4pQwXkLmTz', mini: 'http://localhost:3000/api/2.0/igi/Hs4pQwXkLmTz.mini', original: 'http://localhost:3000/api/2.0/igi/Hs4pQwXkLmTz.full' };

/** WikiSummary: list items, ancestors, children, related pages. */
export class WikiSummaryResponseDto {
  @ApiProperty({ enum: ['wiki'] }) dataType!: 'wiki';
  @ApiProperty({ type: 'integer', example: 3 }) wikiid!: number;
  @ApiProperty({ enum: NAMESPACES, example: 'CATEGORY' }) namespace!: string;
  @ApiProperty({ example: 'iPhone 12' }) title!: string;
  @ApiProperty({ example: 'iPhone 12' }) display_title!: string;
  @ApiProperty({ description: 'UNIX seconds', example: 1764000000 }) modified_date!: number;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Device/iPhone_12' }) url!: string;
  @ApiProperty({ description: 'The description', example: 'Apple smartphone released in 2020.' }) summary!: string;
  @ApiProperty({ description: 'The description (again, as the original sends it)', example: 'Apple smartphone released in 2020.' }) text!: string;
  @ApiProperty({ description: 'The userid of the creator', example: 1 }) author!: number;
  @ApiProperty({ type: ImageResponseDto, nullable: true, example: null }) image!: ImageResponseDto | null;
}

/** A contributor of a page: a UserSummary with its share of the revisions. */
export class WikiAuthorResponseDto extends UserSummaryResponseDto {
  @ApiProperty({ description: 'Share of the revisions, in percent (rounded)', example: 100 }) percent!: number;
  @ApiProperty({ format: 'uri', description: 'The url again' }) profile_url!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null (avatars are in `image`)' }) avatar_url!: null;
}

export class WikiFlagResponseDto {
  @ApiProperty({ example: 'WIKI_FEATURED' }) flagid!: string;
}

export class WikiInfoResponseDto {
  @ApiProperty({ example: 'Release date' }) name!: string;
  @ApiProperty({ example: '2020' }) value!: string;
}

export class LinkedWikiResponseDto {
  @ApiProperty({ type: 'integer' }) wikiid!: number;
  @ApiProperty({ enum: NAMESPACES }) namespace!: string;
  @ApiProperty() title!: string;
}

export class WikiSupplierResponseDto {
  @ApiProperty({ example: 'IF315-012' }) 'part_#'!: string;
  @ApiProperty({ example: 'OEM' }) type!: string;
  @ApiProperty({ example: 'Example Parts Ltd' }) supplier!: string;
  @ApiProperty({ description: 'An http(s) URL, or empty', example: 'https://parts.example.com/battery' }) url!: string;
}

export class WikiDocumentResponseDto {
  @ApiProperty({ type: 'integer', example: 7 }) documentid!: number;
}

export class MaintenanceTriggerResponseDto {
  @ApiProperty({ enum: TRIGGER_TYPES }) trigger_type!: string;
  @ApiProperty({ example: 'age' }) metric!: string;
  @ApiProperty({ example: 'months' }) unit!: string;
  @ApiProperty({ type: Number, nullable: true, example: 12 }) first_interval!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 12 }) repeat_interval!: number | null;
  @ApiProperty({ type: String, nullable: true, enum: ['<', '<=', '=', '>=', '>'], example: null }) comparator!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: null }) threshold!: number | null;
}

export class MaintenanceScheduleResponseDto {
  @ApiProperty({ type: 'integer', description: "The page's own numbering, kept across edits", example: 1 }) wiki_maintenance_scheduleid!: number;
  @ApiProperty({ example: 'Replace the battery' }) task!: string;
  @ApiProperty({ enum: SCHEDULE_STATUSES }) status!: string;
  @ApiProperty({ type: [MaintenanceTriggerResponseDto] }) triggers!: MaintenanceTriggerResponseDto[];
  @ApiProperty({ type: 'integer', nullable: true, example: null }) guideid!: number | null;
  @ApiProperty({ type: [String], example: ['Battery'] }) parts!: string[];
}

/** `GET /wikis/maintenance/CATEGORY/{title}`. */
export class MaintenanceResponseDto {
  @ApiProperty({ type: [MaintenanceScheduleResponseDto] }) schedules!: MaintenanceScheduleResponseDto[];
  @ApiProperty({ type: String, nullable: true, description: 'The ancestor category the schedules come from; null: the page itself (or none anywhere)', example: 'Phone' }) inheritedFrom!: string | null;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiProperty({ type: 'integer', description: 'The revision of the page the schedules come from (the page itself when none anywhere)', example: 112 }) revisionid!: number;
}

/** A part of a category: the legacy `{tag, count, url}` with the item fields of a guide's parts. */
export class CategoryPartResponseDto {
  @ApiProperty({ description: "The part's name", example: 'iPhone 12 Battery' }) tag!: string;
  @ApiProperty({ description: "How many of the category's guides list it", example: 2 }) count!: number;
  @ApiProperty({ example: 'iPhone 12 Battery' }) text!: string;
  @ApiProperty({ example: '' }) type!: string;
  @ApiProperty({ example: 1 }) quantity!: number;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Notes are per guide: null here' }) notes!: null;
  @ApiProperty({ description: "The item's page (empty when it has none)", example: 'https://example.com/parts/iphone-12-battery' }) url!: string;
  @ApiProperty({ description: "The item's picture (empty when it has none)", example: '' }) thumbnail!: string;
  @ApiProperty() isoptional!: boolean;
  @ApiProperty() featured!: boolean;
}

export class CategoryPartsResponseDto {
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Parts/iPhone_12' }) url!: string;
  @ApiProperty({ type: [CategoryPartResponseDto] }) categories!: CategoryPartResponseDto[];
}

/** A tool of a category: `{title, target_url, image_url, itemcode}` with the item fields and `count`. */
export class CategoryToolResponseDto {
  @ApiProperty({ example: 'Phillips #000 Screwdriver' }) title!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) target_url!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) image_url!: string | null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) itemcode!: null;
  @ApiProperty({ example: 'Phillips #000 Screwdriver' }) text!: string;
  @ApiProperty({ example: '' }) type!: string;
  @ApiProperty({ example: 1 }) quantity!: number;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) notes!: null;
  @ApiProperty({ description: "The item's page (empty when it has none)", example: 'https://example.com/parts/iphone-12-battery' }) url!: string;
  @ApiProperty({ description: "The item's picture (empty when it has none)", example: '' }) thumbnail!: string;
  @ApiProperty() isoptional!: boolean;
  @ApiProperty() featured!: boolean;
  @ApiProperty({ example: 2 }) count!: number;
}

const CATEGORY_ONLY = 'CATEGORY pages only';

/** The full Wiki (reference §3.10): the namespace-specific fields only where they apply. */
export class WikiResponseDto {
  @ApiProperty({ type: 'integer', example: 3 }) wikiid!: number;
  @ApiProperty({ enum: NAMESPACES, example: 'CATEGORY' }) namespace!: string;
  @ApiProperty({ example: 'iPhone 12' }) title!: string;
  @ApiProperty({ example: 'iPhone 12' }) display_title!: string;
  @ApiProperty({ description: 'The page heading title (the display title unless one was written)', example: 'iPhone 12' }) page_title!: string;
  @ApiProperty({ type: 'integer', description: 'Current revision: send it back with writes', example: 112 }) revisionid!: number;
  @ApiProperty({ description: 'UNIX seconds' }) modified_date!: number;
  @ApiProperty({ description: 'UNIX seconds' }) created_date!: number;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiProperty({ type: [String], example: ['en'] }) available_langids!: string[];
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Device/iPhone_12' }) url!: string;
  @ApiProperty({ example: 'Apple smartphone released in 2020.' }) description!: string;
  @ApiProperty({ description: 'Wiki markup', example: "The '''iPhone 12'''." }) contents_raw!: string;
  @ApiProperty({ description: 'HTML', example: '<p>The <strong>iPhone 12</strong>.</p>' }) contents_rendered!: string;
  @ApiProperty({ type: ImageResponseDto, nullable: true, example: EXAMPLE_IMAGE }) image!: ImageResponseDto | null;
  @ApiProperty({ description: 'The userid of the creator', example: 1 }) author!: number;
  @ApiProperty({ type: [WikiAuthorResponseDto], description: 'Contributors, the creator first' }) authors!: WikiAuthorResponseDto[];
  @ApiProperty({ description: "How many times the page's current revision was read (an extension of this service: counted in memory and written every few seconds, so a read shows the total of a few seconds ago)", example: 42 }) views!: number;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(WikiFlagResponseDto) }, description: 'Keyed by flag id, in display order', example: {} })
  flags!: Record<string, WikiFlagResponseDto>;
  @ApiProperty({ type: [WikiInfoResponseDto] }) info!: WikiInfoResponseDto[];
  @ApiProperty({ type: [String], example: ['battery'] }) tags!: string[];
  @ApiProperty({ type: [LinkedWikiResponseDto], maxItems: 0, example: [], description: 'Always empty: links in the body are not extracted' }) linked_wikis!: LinkedWikiResponseDto[];
  @ApiProperty({ type: [WikiSummaryResponseDto], description: 'The live related pages, in the order written' }) related_wikis!: WikiSummaryResponseDto[];
  @ApiProperty({ description: 'The viewer may edit' }) can_edit!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'As written (this service keeps one language)', example: null }) source_revisionid!: number | null;
  @ApiProperty({ example: false }) table_of_contents!: boolean;
  @ApiPropertyOptional({ type: [WikiSupplierResponseDto], description: 'ITEM pages only' }) suppliers?: WikiSupplierResponseDto[];
  @ApiPropertyOptional({ type: [WikiSummaryResponseDto], description: `${CATEGORY_ONLY}: the breadcrumb, closest parent first` }) ancestors?: WikiSummaryResponseDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: `${CATEGORY_ONLY}: the parent's title (null: a root)`, example: 'Phone' }) parent?: string | null;
  @ApiPropertyOptional({ type: [WikiSummaryResponseDto], description: `${CATEGORY_ONLY}: the child categories` }) children?: WikiSummaryResponseDto[];
  @ApiPropertyOptional({ type: 'array', items: GUIDE_SUMMARY, description: `${CATEGORY_ONLY}: its public guides` }) guides?: unknown[];
  @ApiPropertyOptional({ type: 'array', items: GUIDE_SUMMARY, description: `${CATEGORY_ONLY}: its featured guides` }) featured_guides?: unknown[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(WikiSummaryResponseDto) } },
    maxProperties: 0,
    description: `${CATEGORY_ONLY}: always empty (no category lists are kept)`,
    example: {},
  })
  category_lists?: Record<string, WikiSummaryResponseDto[]>;
  @ApiPropertyOptional({ type: 'object', properties: {}, additionalProperties: false, description: `${CATEGORY_ONLY}: always empty (no category metadata is kept)`, example: {} }) category_info?: Record<string, never>;
  @ApiPropertyOptional({ type: [WikiDocumentResponseDto], description: `${CATEGORY_ONLY}: the attached documents, as written` }) documents?: WikiDocumentResponseDto[];
  @ApiPropertyOptional({ type: [LinkedWikiResponseDto], maxItems: 0, example: [], description: `${CATEGORY_ONLY}: always empty (no diagrams are kept)` }) diagrams?: LinkedWikiResponseDto[];
  @ApiPropertyOptional({ type: CategoryPartsResponseDto, description: `${CATEGORY_ONLY}: the parts its public guides list` }) parts?: CategoryPartsResponseDto;
  @ApiPropertyOptional({ type: [CategoryToolResponseDto], description: `${CATEGORY_ONLY}: the tools its public guides list` }) tools?: CategoryToolResponseDto[];
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 10, description: CATEGORY_ONLY, example: 7 }) repairability_score?: number | null;
  @ApiPropertyOptional({ format: 'uri', description: CATEGORY_ONLY, example: 'http://localhost:3000/Answers/Device/iPhone_12' }) solutions_url?: string;
  @ApiPropertyOptional({ description: `${CATEGORY_ONLY}: always false`, example: false }) is_troubleshooting?: boolean;
  @ApiPropertyOptional({ type: [MaintenanceScheduleResponseDto], description: `${CATEGORY_ONLY}: its own schedules (GET /wikis/maintenance/CATEGORY/{title} inherits)` })
  maintenance_schedule?: MaintenanceScheduleResponseDto[];
}

/**
 * The category tree: titles mapped to their subtree, a leaf to null. The schema is recursive, so it
 * is written once, as the `hierarchy` of `{hierarchy, display_titles}`, and referred to by JSON pointer.
 */
export const CATEGORY_TREE = { $ref: '#/components/schemas/CategoryTreeWithTitlesResponseDto/properties/hierarchy' };

/** `GET /categories?withDisplayTitles`. */
export class CategoryTreeWithTitlesResponseDto {
  @ApiProperty({
    type: 'object',
    description: 'The category tree: titles (master language) mapped to their own subtree, or null for a leaf',
    additionalProperties: { oneOf: [CATEGORY_TREE, { type: 'string', nullable: true, enum: [null] }] },
    example: { Phone: { 'iPhone 12': null, 'Pixel 6': null }, Laptop: null },
  })
  hierarchy!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Title → display title', example: { Phone: 'Phone', 'iPhone 12': 'iPhone 12' } })
  display_titles!: Record<string, string>;
}

/** `GET /wikis/CATEGORY?display=hierarchyOrder`: the tree as ordered nodes. */
export class CategoryOrderNodeResponseDto {
  @ApiProperty({ example: 'Phone' }) title!: string;
  @ApiProperty({ example: 'Phone' }) display_title!: string;
  @ApiProperty({ type: () => [CategoryOrderNodeResponseDto], description: 'Child categories, by title' }) children!: CategoryOrderNodeResponseDto[];
}

/** `GET /categories/{name}`: the legacy category (reference §3.9). */
export class TopicInfoResponseDto {
  @ApiProperty({ example: 'iPhone 12' }) name!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) manufacturer!: null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) introduced!: null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) discontinued!: null;
}

export class SolutionsResponseDto {
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ description: 'Always 0: this service keeps no questions', example: 0 }) count!: number;
}

export class LegacyCategoryResponseDto {
  @ApiProperty({ example: 'iPhone 12' }) title!: string;
  @ApiProperty({ example: 'iPhone 12' }) display_title!: string;
  @ApiProperty({ example: 'en' }) locale!: string;
  @ApiProperty({ type: TopicInfoResponseDto }) topic_info!: TopicInfoResponseDto;
  @ApiProperty({ type: ImageResponseDto, nullable: true, example: null }) image!: ImageResponseDto | null;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], example: [] }) flags!: string[];
  @ApiProperty({ type: [String], description: 'Ancestors, the root first', example: ['Phone'] }) categories!: string[];
  @ApiProperty({ type: [String], description: 'Ancestors, the closest first', example: ['Phone'] }) ancestors!: string[];
  @ApiProperty({ type: [String], example: [] }) children!: string[];
  @ApiProperty({ type: SolutionsResponseDto }) solutions!: SolutionsResponseDto;
  @ApiProperty({ type: CategoryPartsResponseDto }) parts!: CategoryPartsResponseDto;
  @ApiProperty({ type: [CategoryToolResponseDto] }) tools!: CategoryToolResponseDto[];
  @ApiProperty({ type: 'array', items: GUIDE_SUMMARY }) guides!: unknown[];
  @ApiProperty() contents_raw!: string;
  @ApiProperty() contents_rendered!: string;
}
