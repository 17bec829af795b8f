import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

// Only the field names are checked here (an unknown field is a 422): the guides domain checks the
// values, with one error per field, so the rules live in one place.

/** Guide write fields (POST /guides, PATCH /guides/{id}); the write names differ from the read names. */
export class GuideWriteDto {
  @ApiPropertyOptional({ description: 'Title of an existing category (required on create)', example: 'iPhone 12' }) @Allow() category?: unknown;
  @ApiPropertyOptional({ enum: ['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to'], description: 'Required on create' }) @Allow() type?: unknown;
  @ApiPropertyOptional({ example: 'Battery' }) @Allow() subject?: unknown;
  @ApiPropertyOptional({ description: 'Defaults to one made of the category, subject and type' }) @Allow() title?: unknown;
  @ApiPropertyOptional({ description: 'Wiki markup' }) @Allow() introduction?: unknown;
  @ApiPropertyOptional({ description: 'Wiki markup' }) @Allow() conclusion?: unknown;
  @ApiPropertyOptional({ maxLength: 156 }) @Allow() summary?: unknown;
  @ApiPropertyOptional({ enum: ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'], nullable: true }) @Allow() difficulty?: unknown;
  @ApiPropertyOptional({ description: 'Accepted and ignored (derived from the seconds)' }) @Allow() time_required?: unknown;
  @ApiPropertyOptional({ description: 'Seconds' }) @Allow() time_required_min?: unknown;
  @ApiPropertyOptional({ description: 'Seconds' }) @Allow() time_required_max?: unknown;
  @ApiPropertyOptional({ description: 'Image id of the main image, or null', nullable: true, type: Number }) @Allow() image?: unknown;
  @ApiPropertyOptional({ type: [String], description: 'Full ordered replacement; privileged flags you cannot touch are kept' }) @Allow() flags?: unknown;
  @ApiPropertyOptional({ type: [Number], description: 'Guide ids; no cycles' }) @Allow() prerequisites?: unknown;
  @ApiPropertyOptional({ description: '[{name, type?, quantity?, notes?, isoptional?, featured?, url?}]', type: 'array', items: { type: 'object' } }) @Allow() parts?: unknown;
  @ApiPropertyOptional({ description: 'Same shape as parts', type: 'array', items: { type: 'object' } }) @Allow() tools?: unknown;
  @ApiPropertyOptional({ description: 'Create: default false (private)' }) @Allow() public?: unknown;
  @ApiPropertyOptional({ description: 'Source language, two letters' }) @Allow() langid?: unknown;
}

/** Step edits: `lines`, `media`, `title` (a step moves with steporder, not here). */
export class StepEditDto {
  @ApiPropertyOptional({ example: '' }) @Allow() title?: unknown;
  @ApiPropertyOptional({ description: 'Same rules as on create', type: 'array', items: { type: 'object' } }) @Allow() lines?: unknown;
  @ApiPropertyOptional({ description: 'Same shape as on create', type: 'object', additionalProperties: true }) @Allow() media?: unknown;
}

/** Step creation: the edit fields plus the position. */
export class StepWriteDto {
  @ApiPropertyOptional({ example: '' }) @Allow() title?: unknown;
  @ApiPropertyOptional({
    description: '1 to 8 lines: {text (1-350 chars, markup), bullet, level 0-2}; the first at level 0, each at most one level deeper than the one above',
    example: [{ text: 'Remove the two screws.', bullet: 'black', level: 0 }],
    type: 'array',
    items: { type: 'object' },
  })
  @Allow()
  lines?: unknown;
  @ApiPropertyOptional({ description: '{type: "image", data: [imageid, ... (max 3)]} or {type: "object", data: objectid | null}', type: 'object', additionalProperties: true })
  @Allow()
  media?: unknown;
  @ApiPropertyOptional({ description: 'Create only: position 1 … count + 1 (default: last)' }) @Allow() orderby?: unknown;
}

export class StepOrderDto {
  @ApiPropertyOptional({ type: [Number], description: 'Every step id of the guide, in the new order' }) @Allow() stepids?: unknown;
}

export class TagDto {
  @ApiPropertyOptional({ example: 'battery', maxLength: 32 }) @Allow() tag?: unknown;
}

/** Favourite and complete accept `{}` or `{langid}`. */
export class LangBodyDto {
  @ApiPropertyOptional({ example: 'en' }) @Allow() langid?: unknown;
}
