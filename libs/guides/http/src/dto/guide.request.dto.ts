import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { BULLETS, DIFFICULTIES, GUIDE_TYPES, MAX_ITEMS, MAX_LEVEL, MAX_LINES } from '@rc/guides-domain';
import { SummaryOfChange } from '@rc/shared-http';

// The classes declare the shape of each body (its types, nested objects and enums, for OpenAPI and
// for the code), but only the field names are checked here (an unknown field is a 422): the guides
// domain checks the values, nested items included, with one error per field and the index of the
// failing item, so the rules and their messages live in one place. Nested items are therefore not
// `@ValidateNested`: class-validator would answer first, with other messages. Until the domain has
// checked them, the values are what the client sent.

/** A part or a tool of a guide. */
export class GuideItemDto {
  @ApiProperty({ description: '1 to 255 characters (`text` is accepted as its alias)', example: 'iPhone 12 Battery' }) name!: string;
  @ApiPropertyOptional({ description: 'Alias of `name`' }) text?: string;
  @ApiPropertyOptional({ example: '' }) type?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10_000, default: 1, example: 1 }) quantity?: number;
  @ApiPropertyOptional({ type: String, nullable: true, example: null }) notes?: string | null;
  @ApiPropertyOptional({ example: false, default: false }) isoptional?: boolean;
  @ApiPropertyOptional({ example: false, default: false }) featured?: boolean;
  @ApiPropertyOptional() summary?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'An http(s) or site-relative URL', example: null }) url?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Accepted and ignored' }) thumbnail?: string | null;
}

/** One line of a step. */
export class LineDto {
  @ApiProperty({ description: '1 to 350 characters of wiki markup (`text_raw` is accepted as its alias)', example: 'Remove the two screws.' }) text!: string;
  @ApiPropertyOptional({ description: 'Alias of `text`' }) text_raw?: string;
  @ApiPropertyOptional({ enum: BULLETS, default: 'black', example: 'black' }) bullet?: (typeof BULLETS)[number];
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_LEVEL, default: 0, example: 0, description: 'The first line at 0; each at most one level deeper than the line above' }) level?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'The id of an existing line (edits)' }) lineid?: number;
}

/** A step's media: up to 3 images, or one video or embed. */
export class StepMediaDto {
  @ApiProperty({ enum: ['image', 'object', 'video', 'embed'], example: 'image' }) type!: 'image' | 'object' | 'video' | 'embed';
  @ApiProperty({
    description: 'image: a list of at most 3 image ids; object, video, embed: an object id or null',
    oneOf: [{ type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 3 }, { type: 'integer', minimum: 1, nullable: true }],
    example: [],
  })
  data!: number[] | number | null;
}

/** Guide write fields (POST /guides, PATCH /guides/{id}); the write names differ from the read names. */
export class GuideWriteDto {
  @ApiPropertyOptional({ description: 'Title of an existing category (required on create)', example: 'iPhone 12' }) @Allow() category?: string;
  @ApiPropertyOptional({ enum: GUIDE_TYPES, description: 'Required on create', example: 'replacement' }) @Allow() type?: (typeof GUIDE_TYPES)[number];
  @ApiPropertyOptional({ example: 'Battery' }) @Allow() subject?: string;
  @ApiPropertyOptional({ description: 'Defaults to one made of the category, subject and type', example: 'iPhone 12 Battery Replacement' }) @Allow() title?: string;
  @ApiPropertyOptional({ description: 'Wiki markup', example: 'A worn battery drains fast.' }) @Allow() introduction?: string;
  @ApiPropertyOptional({ description: 'Wiki markup', example: '' }) @Allow() conclusion?: string;
  @ApiPropertyOptional({ maxLength: 156, example: 'Replace a worn battery.' }) @Allow() summary?: string;
  @ApiPropertyOptional({ enum: DIFFICULTIES, nullable: true, example: 'Moderate' }) @Allow() difficulty?: (typeof DIFFICULTIES)[number] | null;
  @ApiPropertyOptional({ description: 'Accepted and ignored (derived from the seconds)', example: '' }) @Allow() time_required?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Seconds', example: 900 }) @Allow() time_required_min?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Seconds', example: 1800 }) @Allow() time_required_max?: number;
  @ApiPropertyOptional({ description: 'Image id of the main image, or null', nullable: true, type: 'integer', minimum: 1, example: null }) @Allow() image?: number | null;
  @ApiPropertyOptional({ type: [String], description: 'Full ordered replacement; privileged flags you cannot touch are kept', example: [] }) @Allow() flags?: string[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Guide ids; no cycles', example: [] }) @Allow() prerequisites?: number[];
  @ApiPropertyOptional({ type: [GuideItemDto], maxItems: MAX_ITEMS, description: 'Full replacement' }) @Allow() parts?: GuideItemDto[];
  @ApiPropertyOptional({ type: [GuideItemDto], maxItems: MAX_ITEMS, description: 'Full replacement' }) @Allow() tools?: GuideItemDto[];
  @ApiPropertyOptional({ description: 'Create: default false (private)', example: false }) @Allow() public?: boolean;
  @ApiPropertyOptional({ description: 'Source language, two letters', example: 'en' }) @Allow() langid?: string;
  // With `?langid=` only (a 422 otherwise), as the route's description says: kept out of the schema,
  // whose example body is a plain edit.
  @ApiHideProperty() @Allow() source_revisionid?: number;
  @SummaryOfChange() summary_of_change?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 100, description: 'Media document ids, your own (any for an Admin): a full replacement, kept with the revision', example: [] })
  @Allow()
  documents?: number[];
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'The featured document: a media document id of yours, or null', example: null })
  @Allow()
  featured_documentid?: number | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: "The intro video's object id (null clears it): kept with the revision (bodies show no intro video yet: `intro_video` reads back null)", example: null })
  @Allow()
  objectid?: number | null;
}

/** Step edits: `lines`, `media`, `title` (a step moves with steporder, not here). */
export class StepEditDto {
  @ApiPropertyOptional({ example: 'Disconnect the battery' }) @Allow() title?: string;
  @ApiPropertyOptional({ description: 'Same rules as on create; a full replacement', type: [LineDto], minItems: 1, maxItems: MAX_LINES }) @Allow() lines?: LineDto[];
  @ApiPropertyOptional({ description: 'Same shape as on create; null removes the media', type: StepMediaDto, nullable: true }) @Allow() media?: StepMediaDto | null;
  @SummaryOfChange() summary_of_change?: string;
}

/** Step creation: the edit fields plus the position. */
export class StepWriteDto {
  @ApiPropertyOptional({ example: 'Disconnect the battery' }) @Allow() title?: string;
  @ApiPropertyOptional({
    description: `1 to ${MAX_LINES} lines; the first at level 0, each at most one level deeper than the one above`,
    example: [{ text: 'Remove the two screws.', bullet: 'black', level: 0 }],
    type: [LineDto],
    minItems: 1,
    maxItems: MAX_LINES,
  })
  @Allow()
  lines?: LineDto[];
  @ApiPropertyOptional({ description: 'Up to 3 images, or one video or embed; null: none', type: StepMediaDto, nullable: true }) @Allow() media?: StepMediaDto | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Create only: position 1 … count + 1 (default: last)', example: 1 }) @Allow() orderby?: number;
  @SummaryOfChange() summary_of_change?: string;
}

export class StepOrderDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Every step id of the guide (`steps[].stepid` of the guide), in the new order', example: [] }) @Allow() stepids?: number[];
  @SummaryOfChange() summary_of_change?: string;
}

export class TagDto {
  @ApiPropertyOptional({ example: 'battery', maxLength: 32 }) @Allow() tag?: string;
}

/** Favourite and complete accept `{}` or `{langid}`. */
export class LangBodyDto {
  @ApiPropertyOptional({ example: 'en' }) @Allow() langid?: string;
}
