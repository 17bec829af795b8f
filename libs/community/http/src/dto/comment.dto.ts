import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserSummaryResponseDto } from '@rc/shared-http';
import { Allow } from 'class-validator';

// Request classes declare the bodies' types; only the field names are checked here (an unknown
// field is a 422): the community domain checks the values, with one error per field.

/** POST /comments/{context}/{contextid} */
export class PostCommentDto {
  @ApiProperty({ description: 'The comment, in wiki markup (1 to 10000 characters, trimmed)', example: "Which screwdriver did you use for the ''pentalobe'' screws?", type: String })
  @Allow()
  text?: string;
  @ApiPropertyOptional({ description: 'The top-level comment on the same page this one answers (threads are one level deep)', type: 'integer', nullable: true, example: null })
  @Allow()
  parentid?: number | null;
  @ApiPropertyOptional({ description: 'The language of the text (two lowercase letters)', example: 'en', type: String, nullable: true })
  @Allow()
  langid?: string | null;
}

/** PATCH /comments/{commentid}: the text only. */
export class EditCommentDto {
  @ApiProperty({ description: 'The new text, in wiki markup (1 to 10000 characters, trimmed)', example: 'Which screwdriver did you use? (P2 pentalobe worked for me)', type: String })
  @Allow()
  text?: string;
}

class CommentFields {
  @ApiProperty({ type: 'integer', example: 12 }) commentid!: number;
  @ApiProperty({ nullable: true, type: String, description: 'The language the poster gave, if any', example: 'en' }) locale!: string | null;
  @ApiProperty({ enum: ['guide', 'step', 'wiki', 'story'] }) context!: string;
  @ApiProperty({ type: 'integer', description: 'The guide id, step id, wiki page id or story id', example: 1 }) contextid!: number;
  @ApiProperty({ nullable: true, type: 'integer', description: 'The top-level comment this one answers' }) parentid!: number | null;
  @ApiProperty({ description: 'Always empty', example: '' }) title!: string;
  @ApiProperty({ description: 'Wiki markup (empty once deleted)' }) text_raw!: string;
  @ApiProperty({ description: 'Safe HTML rendered from text_raw (empty once deleted)' }) text_rendered!: string;
  @ApiProperty({ description: 'UNIX seconds: when it was posted' }) date!: number;
  @ApiProperty({ description: 'UNIX seconds: the last edit (0 if never edited)' }) modified_date!: number;
  @ApiProperty({ enum: ['public', 'deleted'], description: 'A deleted comment shows only as the parent of replies that are still there' }) status!: string;
  @ApiProperty({ enum: [0], description: 'Always 0' }) rating!: number;
  @ApiProperty({ type: UserSummaryResponseDto }) author!: UserSummaryResponseDto;
}

/** A reply (its own `replies` is always empty). */
export class CommentReplyResponseDto extends CommentFields {
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/CommentReplyResponseDto' }, maxItems: 0, example: [], description: 'Always empty: replies are one level deep' }) replies!: never[];
}

/** The Comment object (reference §3.12). */
export class CommentResponseDto extends CommentFields {
  @ApiProperty({ type: [CommentReplyResponseDto], description: 'Top-level comments: the replies, newest first' }) replies!: CommentReplyResponseDto[];
}
