import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { COMMENT_CONTEXTS, CommentNotFoundError, DeleteComment, EditComment, ListComments, PostComment, ViewComment, type CommentContext, type CommentId, type CommunityActor } from '@rc/community-domain';
import type { Caller } from '@rc/identity-contracts';
import { CurrentPrincipal, Endpoint, IdParam, order, timestamp } from '@rc/shared-http';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';
import { parseId, parsePage } from '@rc/shared-kernel';
import { CommentBodies, keptForAnonymous } from './comment-bodies.js';
import { CommentResponseDto, EditCommentDto, PostCommentDto } from './dto/comment.dto.js';
import { CommunityReader } from './community.presenter.js';

type Query = Record<string, unknown>;

export const actorOf = (principal: Caller | null): CommunityActor | null => (principal ? { userId: principal.userId, isAdmin: principal.role === 'Admin' } : null);

/** A path id that is not a positive integer names no comment. */
function commentIdOf(raw: string): CommentId {
  const id = parseId(raw);
  if (id === null) throw new CommentNotFoundError();
  return id as CommentId;
}

const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);
const text = (query: Query, name: string): string | undefined => {
  const value = last(query[name]);
  return typeof value === 'string' ? value : undefined;
};

const COMMENT = { description: 'The Comment (reference §3.12)', type: CommentResponseDto };
const PRIVATE = 'A comment on a private guide (or one of its steps) is a 403 `Guide is private.` for those who may not see the guide.';

@ApiTags('Comments')
@Controller('comments')
export class CommentsController {
  constructor(
    private readonly reader: CommunityReader,
    private readonly bodies: CommentBodies,
    private readonly stamps: ContentStampReader,
    private readonly listComments: ListComments,
    private readonly viewComment: ViewComment,
    private readonly postComment: PostComment,
    private readonly editComment: EditComment,
    private readonly deleteComment: DeleteComment,
  ) {}

  @Get()
  @Endpoint({
    summary: 'List comments',
    description:
      'Live comments by `commentid` (`order` ASC or DESC), paged; top-level ones carry their replies (newest first). ' +
      '`context` keeps one kind of page (exact match: any other value matches nothing), `langid` the language the posters gave, ' +
      '`modifiedSince` (UNIX seconds) the comments edited since then (never-edited comments have `modified_date` 0). ' +
      "Comments of guides you may not see are left out of the page, so a page may be shorter than `limit` while later pages still hold comments.",
    errors: [400],
  })
  @ApiQuery({ name: 'context', required: false, enum: COMMENT_CONTEXTS }) @ApiQuery({ name: 'langid', required: false, type: String, example: 'en' })
  @ApiQuery({ name: 'modifiedSince', required: false, type: 'integer', description: 'UNIX seconds' }) @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ ...COMMENT, isArray: true })
  async list(@Query() query: Query, @CurrentPrincipal() principal: Caller | null, @Req() req: Request) {
    const context = text(query, 'context');
    const filter = { order: order(query), langid: text(query, 'langid'), modifiedSince: timestamp(query, 'modifiedSince') };
    const page = parsePage(query);
    if (context !== undefined && !(COMMENT_CONTEXTS as readonly string[]).includes(context)) return [];
    return keptForAnonymous(this.bodies, this.stamps, req, principal, async () => {
      const items = await this.listComments.execute({ viewer: actorOf(principal), filter: { ...filter, context: context as CommentContext | undefined }, page });
      return this.reader.comments(items);
    });
  }

  @Get(':commentid')
  @IdParam('commentid', 'The comment id')
  @Endpoint({ summary: 'A comment', description: `A deleted comment answers with status \`deleted\` and no text. ${PRIVATE}`, errors: [403, 404], notFound: 'Comment not found', forbidden: 'Guide is private.' })
  @ApiOkResponse(COMMENT)
  async get(@Param('commentid') raw: string, @CurrentPrincipal() principal: Caller | null, @Req() req: Request) {
    const commentId = commentIdOf(raw);
    return keptForAnonymous(this.bodies, this.stamps, req, principal, async () => {
      const [body] = await this.reader.comments([await this.viewComment.execute({ viewer: actorOf(principal), commentId })]);
      return body;
    });
  }

  @Post(':context/:contextid')
  @HttpCode(201)
  @ApiParam({ name: 'context', enum: ['guide', 'step', 'wiki', 'story'], description: 'What the comment is on (`post` and `wp_post` name nothing here: 404; any other value: 422)' })
  @IdParam('contextid', 'The guide id, step id, wiki page id or story id')
  @Endpoint({
    summary: 'Post a comment',
    description:
      'On a guide, a step, a wiki page or a story. `parentid` answers a top-level comment on the same page (threads are one level deep). ' +
      `The text is wiki markup, shown as safe HTML in \`text_rendered\`. A missing page is a 404. ${PRIVATE}`,
    token: true,
    errors: [403, 404, 422],
    notFound: 'Guide not found',
    forbidden: 'Guide is private.',
  })
  @ApiBody({ type: PostCommentDto }) @ApiCreatedResponse(COMMENT)
  async create(@Param('context') context: string, @Param('contextid') rawId: string, @Body() body: PostCommentDto, @CurrentPrincipal() principal: Caller) {
    const comment = await this.postComment.execute({ actor: actorOf(principal)!, context, contextId: parseId(rawId), fields: body });
    const [created] = await this.reader.comments([{ comment: comment.state, replies: [] }]);
    return created;
  }

  @Patch(':commentid')
  @IdParam('commentid', 'The comment id')
  @Endpoint({
    summary: 'Edit a comment',
    description: 'The text only (any other field is a 422). Its author within 5 minutes of posting, or an Admin at any time; anyone else is a 403. A deleted comment is a 404.',
    token: true,
    errors: [403, 404, 422],
    notFound: 'Comment not found',
    forbidden: { message: 'Only the author of a comment or an Admin may edit it', requiredPrivileges: ['Admin'] },
  })
  @ApiBody({ type: EditCommentDto }) @ApiOkResponse(COMMENT)
  async edit(@Param('commentid') raw: string, @Body() body: EditCommentDto, @CurrentPrincipal() principal: Caller) {
    const [edited] = await this.reader.comments([await this.editComment.execute({ actor: actorOf(principal)!, commentId: commentIdOf(raw), fields: body })]);
    return edited;
  }

  @Delete(':commentid')
  @IdParam('commentid', 'The comment id')
  @HttpCode(204)
  @Endpoint({
    summary: 'Delete a comment (soft)',
    description: 'Its author or an Admin. The comment then shows as `deleted` without its text, and only while it has replies, which stay readable.',
    token: true,
    errors: [403, 404],
    notFound: 'Comment not found',
    forbidden: { message: 'Only the author of a comment or an Admin may delete it', requiredPrivileges: ['Admin'] },
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@Param('commentid') raw: string, @CurrentPrincipal() principal: Caller): Promise<void> {
    await this.deleteComment.execute({ actor: actorOf(principal)!, commentId: commentIdOf(raw) });
  }
}
