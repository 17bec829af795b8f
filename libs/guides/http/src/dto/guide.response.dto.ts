import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath, OmitType } from '@nestjs/swagger';
import { ImageResponseDto, UserSummaryResponseDto } from '@rc/shared-http';

// Documentation of the guide bodies (reference §3.4–§3.8). The presenter builds the bodies; these
// classes only describe them for OpenAPI.

export class GuideSummaryResponseDto {
  @ApiProperty({ enum: ['guide'] }) dataType!: 'guide';
  @ApiProperty({ type: 'integer' }) guideid!: number;
  @ApiProperty({ example: 'en' }) locale!: string;
  @ApiProperty({ type: 'integer', description: 'Current revision: send it back with writes' }) revisionid!: number;
  @ApiProperty({ description: 'UNIX seconds' }) modified_date!: number;
  @ApiProperty({ description: 'UNIX seconds: latest edit among the prerequisites (0 when none)' }) prereq_modified_date!: number;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ enum: ['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to'] }) type!: string;
  @ApiProperty() category!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() title!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ nullable: true, type: String, enum: ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'] }) difficulty!: string | null;
  @ApiProperty({ description: 'Seconds' }) time_required_max!: number;
  @ApiProperty() public!: boolean;
  @ApiProperty({ type: 'integer' }) userid!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ type: [String], example: ['GUIDE_STARRED'] }) flags!: string[];
  @ApiProperty({ type: ImageResponseDto, nullable: true }) image!: ImageResponseDto | null;
}

/** A prerequisite of a guide (reference §3.5 PrerequisiteGuide): a summary without `summary`. */
export class GuidePrerequisiteResponseDto extends OmitType(GuideSummaryResponseDto, ['summary'] as const) {}

export class FavoriteResponseDto {
  @ApiProperty({ description: 'UNIX seconds: when it was favourited' }) date!: number;
  @ApiProperty({ type: GuideSummaryResponseDto }) guide!: GuideSummaryResponseDto;
}

export class LineResponseDto {
  @ApiProperty({ description: 'Wiki markup' }) text_raw!: string;
  @ApiProperty({ description: 'HTML' }) text_rendered!: string;
  @ApiProperty({ enum: ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'] }) bullet!: string;
  @ApiProperty({ minimum: 0, maximum: 2 }) level!: number;
  @ApiProperty({ nullable: true, type: 'integer' }) lineid!: number | null;
}

/** A step's video, as step bodies name it: the object id (the video itself is `GET /media/videos/{id}`). */
export class StepVideoResponseDto {
  @ApiProperty({ type: 'integer', description: 'The video object id', example: 41 }) objectid!: number;
}

/** A step's embed, as step bodies name it: the embed id. */
export class StepEmbedResponseDto {
  @ApiProperty({ type: 'integer', description: 'The embed object id', example: 42 }) embedid!: number;
}

@ApiExtraModels(StepVideoResponseDto, StepEmbedResponseDto)
export class StepMediaResponseDto {
  @ApiProperty({ enum: ['image', 'video', 'embed'] }) type!: string;
  @ApiProperty({
    description: 'image: up to 3 images (empty when the step has none); video: `{objectid}`; embed: `{embedid}`',
    oneOf: [{ type: 'array', items: { $ref: getSchemaPath(ImageResponseDto) } }, { $ref: getSchemaPath(StepVideoResponseDto) }, { $ref: getSchemaPath(StepEmbedResponseDto) }],
    example: [],
  })
  data!: ImageResponseDto[] | StepVideoResponseDto | StepEmbedResponseDto;
}

export class StepResponseDto {
  @ApiProperty({ type: 'integer' }) stepid!: number;
  @ApiProperty({ type: 'integer', description: 'The owning guide (a prerequisite guide for inlined steps)' }) guideid!: number;
  @ApiProperty({ description: '1-based position inside its own guide' }) orderby!: number;
  @ApiProperty({ type: 'integer', description: "The step's own revision: send it back with step writes" }) revisionid!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [LineResponseDto] }) lines!: LineResponseDto[];
  @ApiProperty({ type: StepMediaResponseDto }) media!: StepMediaResponseDto;
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/CommentResponseDto' }, example: [], description: "The step's comments (reference §3.12): threads oldest first, replies newest first" }) comments!: object[];
  @ApiPropertyOptional({ description: 'Only with `stepComments`: live comments on the step, replies included (`comments` then shows at most 20 threads)' }) comment_count?: number;
}

export class GuideItemResponseDto {
  @ApiProperty() text!: string;
  @ApiProperty() type!: string;
  @ApiProperty() quantity!: number;
  @ApiProperty({ nullable: true, type: String }) notes!: string | null;
  @ApiProperty({ format: 'uri', description: "The item's page: its own link, else the ITEM page its name resolves to", example: 'https://example.com/parts/iphone-12-battery' }) url!: string;
  @ApiProperty({ format: 'uri', nullable: true, type: String, description: "The item's picture (null when it has none)", example: null }) thumbnail!: string | null;
  @ApiProperty() isoptional!: boolean;
  @ApiProperty() featured!: boolean;
}

/** An entry of a guide's `contributors` (the shape of a wiki page's `authors`, reference §3.10). */
export class GuideContributorResponseDto extends UserSummaryResponseDto {
  @ApiProperty({ description: "Share of the guide's revisions, in percent (rounded)", example: 100 }) percent!: number;
  @ApiProperty({ format: 'uri', description: 'The url again' }) profile_url!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null (avatars are in `image`)' }) avatar_url!: null;
}

/** A document of a guide: the original's minimal form (reference §3.5). */
export class GuideDocumentResponseDto {
  @ApiProperty({ type: 'integer', example: 12 }) documentid!: number;
  @ApiProperty({ description: "The document's title", example: 'Service manual' }) text!: string;
  @ApiProperty({ description: "The document's page, site-relative", example: '/Document/Xy12AbCd/Service%20manual.pdf' }) url!: string;
  @ApiProperty({ format: 'uri', description: 'The PDF file' }) download_url!: string;
}

export class GuideFlagResponseDto {
  @ApiProperty() title!: string;
  @ApiProperty() flagid!: string;
  @ApiProperty() text!: string;
}

export class GuideResponseDto {
  @ApiProperty({ type: 'integer' }) guideid!: number;
  @ApiProperty() title!: string;
  @ApiProperty() category!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() type!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ nullable: true, type: String }) difficulty!: string | null;
  @ApiProperty({ example: '30 minutes' }) time_required!: string;
  @ApiProperty() time_required_min!: number;
  @ApiProperty() time_required_max!: number;
  @ApiProperty() introduction_raw!: string;
  @ApiProperty() introduction_rendered!: string;
  @ApiProperty() conclusion_raw!: string;
  @ApiProperty() conclusion_rendered!: string;
  @ApiProperty({ type: ImageResponseDto, nullable: true }) image!: ImageResponseDto | null;
  @ApiProperty({ type: [StepResponseDto], description: "Prerequisite guides' steps first, unless excluded" }) steps!: StepResponseDto[];
  @ApiProperty({ type: [GuideItemResponseDto] }) parts!: GuideItemResponseDto[];
  @ApiProperty({ type: [GuideItemResponseDto] }) tools!: GuideItemResponseDto[];
  @ApiProperty({ type: [GuidePrerequisiteResponseDto], description: 'Summaries without `summary`' }) prerequisites!: GuidePrerequisiteResponseDto[];
  @ApiProperty({ type: [GuideDocumentResponseDto], description: 'The media documents attached, in the order written (deleted ones left out)' }) documents!: GuideDocumentResponseDto[];
  @ApiProperty({ type: [GuideFlagResponseDto] }) flags!: GuideFlagResponseDto[];
  @ApiProperty({ type: UserSummaryResponseDto }) author!: UserSummaryResponseDto;
  @ApiProperty({ type: 'integer' }) revisionid!: number;
  @ApiProperty() created_date!: number;
  @ApiProperty() published_date!: number;
  @ApiProperty() modified_date!: number;
  @ApiProperty() prereq_modified_date!: number;
  @ApiProperty() public!: boolean;
  @ApiProperty() locale!: string;
  @ApiProperty() langid!: string;
  @ApiProperty({ type: [String] }) available_langids!: string[];
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() patrol_threshold!: number;
  @ApiProperty({ description: 'The viewer may edit' }) can_edit!: boolean;
  @ApiProperty({ description: 'The viewer favourited it' }) favorited!: boolean;
  @ApiProperty({ description: 'The viewer completed it' }) completed!: boolean;
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/CommentResponseDto' }, example: [], description: 'The guide-level comments (reference §3.12): threads oldest first, replies newest first' }) comments!: object[];
  @ApiProperty({ nullable: true, type: 'integer', description: 'The featured document id, as written' }) featured_documentid!: number | null;
  @ApiProperty() featured_document_embed_url!: string;
  @ApiProperty() featured_document_thumbnail_url!: string;
  @ApiProperty({ nullable: true, type: String }) intro_video_url!: string | null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null: this service keeps no intro videos (the field is kept for compatibility)' }) intro_video!: null;
  // Extensions of this service (not in the original API).
  @ApiProperty({ type: [GuideContributorResponseDto], description: "Everyone who saved a revision of the guide (up to the revision shown), with their share of the revisions; the creator first (as a wiki page's `authors`)" })
  contributors!: GuideContributorResponseDto[];
  @ApiProperty({ type: [GuideContributorResponseDto], description: "With `langid`, when the guide shows a translation: everyone who saved a revision of that translation, with their share of its revisions (in `percent`), whoever started it first. Empty when the guide shows in its own language (its editors are `contributors`)" })
  translators!: GuideContributorResponseDto[];
  @ApiProperty({ description: 'How many users favourited the guide', example: 3 }) favorites_count!: number;
  @ApiProperty({ description: 'How many users marked the guide completed', example: 5 }) completions_count!: number;
  @ApiProperty({ description: 'How many times the guide was read (200s and 304s of its current version): counted in memory and written every few seconds, so a read shows the total of a little while ago', example: 120 }) views!: number;
}
