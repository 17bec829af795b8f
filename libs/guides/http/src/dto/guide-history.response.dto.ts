import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { storedValueProperty, UserSummaryResponseDto } from '@rc/shared-http';

// Documentation of the history, diff and collaborator bodies: the readers build them; these
// classes only describe them for OpenAPI.

const ANY_VALUE = storedValueProperty('A field value as stored: a string, number, boolean, list, object or null');

export class GuideRevisionResponseDto {
  @ApiProperty({ type: 'integer', example: 1042 }) revisionid!: number;
  @ApiProperty({ description: 'UNIX seconds: when it was saved', example: 1764150000 }) date!: number;
  @ApiProperty({ type: UserSummaryResponseDto, description: 'Who saved it' }) author!: UserSummaryResponseDto;
  @ApiProperty({ type: String, nullable: true, description: 'What the editor said of the change (at most 255 characters)', example: 'Fixed a typo in step 2' }) summary_of_change!: string | null;
  @ApiProperty({ example: 'en' }) langid!: string;
}

export class TextRunResponseDto {
  @ApiProperty({ enum: ['context', 'added', 'removed'] }) type!: string;
  @ApiProperty({ type: [String], description: 'The lines of the run' }) lines!: string[];
}

export class StoredLineResponseDto {
  @ApiProperty({ type: 'integer' }) lineid!: number;
  @ApiProperty({ description: 'Wiki markup' }) text!: string;
  @ApiProperty({ example: 'black' }) bullet!: string;
  @ApiProperty({ minimum: 0, maximum: 2 }) level!: number;
}

export class StepLineRunResponseDto {
  @ApiProperty({ enum: ['context', 'added', 'removed'] }) type!: string;
  @ApiProperty({ type: [StoredLineResponseDto] }) lines!: StoredLineResponseDto[];
}

export class StoredMediaResponseDto {
  @ApiProperty({ enum: ['image', 'video', 'embed', 'none'] }) type!: string;
  @ApiPropertyOptional({ type: [Number], description: 'image: the image ids' }) imageIds?: number[];
  @ApiPropertyOptional({ type: 'integer', description: 'video, embed: the object id' }) objectId?: number;
}

export class FieldChangeResponseDto {
  @ApiProperty({ description: 'The write name of the field', example: 'introduction' }) field!: string;
  @ApiProperty(ANY_VALUE) from!: unknown;
  @ApiProperty(ANY_VALUE) to!: unknown;
  @ApiPropertyOptional({ type: [TextRunResponseDto], description: 'Markup fields (summary, introduction, conclusion): the change line by line' }) lines?: TextRunResponseDto[];
}

export class StepContentResponseDto {
  @ApiProperty({ type: 'integer' }) stepid!: number;
  @ApiProperty({ description: 'Its position in the newer revision' }) orderby!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [StoredLineResponseDto] }) lines!: StoredLineResponseDto[];
  @ApiProperty({ type: StoredMediaResponseDto }) media!: StoredMediaResponseDto;
}

export class StepRemovedResponseDto {
  @ApiProperty({ type: 'integer' }) stepid!: number;
  @ApiProperty({ description: 'Its position in the older revision' }) orderby!: number;
  @ApiProperty() title!: string;
}

export class StepMovedResponseDto {
  @ApiProperty({ type: 'integer' }) stepid!: number;
  @ApiProperty() from_orderby!: number;
  @ApiProperty() to_orderby!: number;
}

export class TitleChangeResponseDto {
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
}

export class MediaChangeResponseDto {
  @ApiProperty({ type: StoredMediaResponseDto }) from!: StoredMediaResponseDto;
  @ApiProperty({ type: StoredMediaResponseDto }) to!: StoredMediaResponseDto;
}

export class StepEditedResponseDto {
  @ApiProperty({ type: 'integer' }) stepid!: number;
  @ApiProperty({ description: 'Its position in the newer revision' }) orderby!: number;
  @ApiPropertyOptional({ type: TitleChangeResponseDto }) title?: TitleChangeResponseDto;
  @ApiPropertyOptional({ type: MediaChangeResponseDto }) media?: MediaChangeResponseDto;
  @ApiPropertyOptional({ type: [StepLineRunResponseDto], description: 'The lines, changed line by line' }) lines?: StepLineRunResponseDto[];
}

export class GuideDiffStepsResponseDto {
  @ApiProperty({ type: [StepContentResponseDto] }) added!: StepContentResponseDto[];
  @ApiProperty({ type: [StepRemovedResponseDto] }) removed!: StepRemovedResponseDto[];
  @ApiProperty({ type: [StepMovedResponseDto], description: 'Steps whose place among the kept steps changed' }) moved!: StepMovedResponseDto[];
  @ApiProperty({ type: [StepEditedResponseDto] }) edited!: StepEditedResponseDto[];
}

export class GuideDiffResponseDto {
  @ApiProperty({ type: 'integer' }) guideid!: number;
  @ApiProperty({ type: 'integer' }) from_revisionid!: number;
  @ApiProperty({ type: 'integer' }) to_revisionid!: number;
  @ApiProperty({ type: [FieldChangeResponseDto] }) fields!: FieldChangeResponseDto[];
  @ApiProperty({ type: GuideDiffStepsResponseDto }) steps!: GuideDiffStepsResponseDto;
  @ApiProperty({ description: 'A unified diff of the guide as markup text', example: '--- guide/1@10\n+++ guide/1@12\n@@ -1,1 +1,1 @@\n-title: Old\n+title: New\n' }) unified!: string;
}

/** The Team object (reference §3.14), as the teams context shows it. */
export class GuideTeamResponseDto {
  @ApiProperty({ type: 'integer' }) teamid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'User id of the owner' }) owner!: number;
  @ApiProperty() reputation!: number;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null: teams have no image yet' }) image!: null;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() member_count!: number;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'UNIX seconds' }) new_member_since!: number;
}

export class GuideTeamsResponseDto {
  @ApiProperty({ type: [GuideTeamResponseDto], description: 'The teams whose members may edit the guide' }) guideTeams!: GuideTeamResponseDto[];
  @ApiProperty() canIViewGuide!: boolean;
  @ApiProperty() canIEditGuide!: boolean;
  @ApiProperty() canIChangeGuidePrivacy!: boolean;
}

export class GuideUsersResponseDto {
  @ApiProperty({ type: [UserSummaryResponseDto], description: 'The collaborators left' }) users!: UserSummaryResponseDto[];
}
