import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ImageResponseDto, UserSummaryResponseDto } from '@rc/shared-http';
import { Allow } from 'class-validator';

const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'];

class StoryWriteFields {
  @ApiPropertyOptional({ description: 'Media image ids of your own images, at least 800×600 (up to 20)', type: [Number], example: [] }) @Allow() images?: number[];
  @ApiPropertyOptional({ description: 'Ids of public guides the story followed (up to 20)', type: [Number], example: [] }) @Allow() guides?: number[];
  @ApiPropertyOptional({ description: 'Product codes (up to 20)', type: [String], example: ['IF145-307'] }) @Allow() products?: string[];
  @ApiPropertyOptional({ enum: DIFFICULTIES, nullable: true, type: String, example: 'Moderate' }) @Allow() difficulty?: string | null;
  @ApiPropertyOptional({ description: 'Seconds the repair took', type: Number, nullable: true, example: 3600 }) @Allow() time_taken?: number | null;
}

/** POST /stories */
export class PostStoryDto extends StoryWriteFields {
  @ApiProperty({ description: 'One line of wiki markup, up to 255 characters', example: 'My MacBook fan is quiet again', type: String }) @Allow() title?: string;
  @ApiProperty({ description: 'Wiki markup, up to 50000 characters', example: 'The fan had been grinding for weeks.', type: String }) @Allow() intro?: string;
  @ApiProperty({ description: 'Wiki markup, up to 50000 characters', example: "I followed the fan guide and replaced it in '''20 minutes'''.", type: String }) @Allow() body?: string;
  @ApiProperty({ description: 'Wiki markup, up to 50000 characters', example: 'Silent since.', type: String }) @Allow() conclusion?: string;
  @ApiPropertyOptional({ description: 'Two lowercase letters (default en)', example: 'en', type: String }) @Allow() langid?: string;
}

/** PATCH /stories/{storyid}: any of the fields. */
export class EditStoryDto extends StoryWriteFields {
  @ApiPropertyOptional({ description: 'One line of wiki markup, up to 255 characters', example: 'My MacBook fan is quiet again (update)', type: String }) @Allow() title?: string;
  @ApiPropertyOptional({ example: 'The fan had been grinding for weeks.', type: String }) @Allow() intro?: string;
  @ApiPropertyOptional({ example: 'I replaced it with the iFixit fan.', type: String }) @Allow() body?: string;
  @ApiPropertyOptional({ example: 'Still silent a month later.', type: String }) @Allow() conclusion?: string;
  @ApiPropertyOptional({
    description: 'Accepted and ignored, whatever its value (the original lists it): any JSON value',
    oneOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: {} }, { type: 'object', additionalProperties: {} }],
    example: null,
  })
  @Allow()
  object?: unknown;
}

export class StoryProductResponseDto {
  @ApiProperty({ enum: ['product'] }) dataType!: 'product';
  @ApiProperty() langid!: string;
  @ApiProperty({ description: 'The product code (this service keeps no store)' }) title!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ description: 'Always empty: no store' }) price!: string;
  @ApiProperty() productCode!: string;
  @ApiProperty({ nullable: true, type: String }) optionid!: string | null;
  @ApiProperty() itemCode!: string;
  @ApiProperty() optionTitle!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null: no product images' }) image!: null;
}

/** A guide a story mentions: the GuideSummary (reference §3.4). */
export class StoryGuideResponseDto {
  @ApiProperty({ enum: ['guide'] }) dataType!: 'guide';
  @ApiProperty({ type: 'integer' }) guideid!: number;
  @ApiProperty() locale!: string;
  @ApiProperty({ type: 'integer' }) revisionid!: number;
  @ApiProperty() modified_date!: number;
  @ApiProperty() prereq_modified_date!: number;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() type!: string;
  @ApiProperty() category!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() title!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ nullable: true, type: String }) difficulty!: string | null;
  @ApiProperty() time_required_max!: number;
  @ApiProperty() public!: boolean;
  @ApiProperty({ type: 'integer' }) userid!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ type: [String] }) flags!: string[];
  @ApiProperty({ type: ImageResponseDto, nullable: true }) image!: ImageResponseDto | null;
}

/** The Story object (reference §3.18). */
export class StoryResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) storyid!: number;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiProperty({ enum: ['open', 'deleted'] }) status!: string;
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Story/1' }) view_url!: string;
  @ApiProperty() title_raw!: string;
  @ApiProperty({ description: 'Safe inline HTML' }) title_rendered!: string;
  @ApiProperty() intro_raw!: string;
  @ApiProperty({ description: 'Safe HTML' }) intro_rendered!: string;
  @ApiProperty() body_raw!: string;
  @ApiProperty({ description: 'Safe HTML' }) body_rendered!: string;
  @ApiProperty() conclusion_raw!: string;
  @ApiProperty({ description: 'Safe HTML' }) conclusion_rendered!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Always null: stories are not rated here' }) rating!: number | null;
  @ApiProperty({ type: UserSummaryResponseDto }) author!: UserSummaryResponseDto;
  @ApiProperty({ description: 'UNIX seconds: posted' }) date!: number;
  @ApiProperty({ description: 'UNIX seconds: last edit (the posting time if never edited)' }) modified_date!: number;
  @ApiProperty({ type: [ImageResponseDto] }) images!: ImageResponseDto[];
  @ApiProperty({ type: [StoryProductResponseDto] }) products!: StoryProductResponseDto[];
  @ApiProperty({ type: [StoryGuideResponseDto], description: 'The guides mentioned that are still public' }) guides!: StoryGuideResponseDto[];
  @ApiProperty({ enum: DIFFICULTIES, nullable: true, type: String, description: 'An extension: as posted' }) difficulty!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'An extension: seconds, as posted' }) time_taken!: number | null;
}
