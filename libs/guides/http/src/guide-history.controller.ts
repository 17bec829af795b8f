import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ChangeGuideAccess,
  GuideHistory,
  GuideNotFoundError,
  GuidePrivateError,
  GuideTeamNotFoundError,
  RevertGuide,
  ViewGuide,
  ViewGuideAccess,
  type Guide,
  type GuideId,
} from '@rc/guides-domain';
import { UserSummaries, type Caller } from '@rc/identity-contracts';
import { parseId, parsePage } from '@rc/shared-kernel';
import { changeNoteOf, CurrentPrincipal, Endpoint, expectedRevision, IdParam, idRequired, IfMatchRevision, PAGE_BAD_REQUEST, presentRevisions, requiredId, requiredRevision, revisionRequired, SUMMARY_OF_CHANGE_QUERY, UserSummaryResponseDto } from '@rc/shared-http';
import { GuideDiffResponseDto, GuideRevisionResponseDto, GuideTeamsResponseDto, GuideUsersResponseDto } from './dto/guide-history.response.dto.js';
import { GuideResponseDto } from './dto/guide.response.dto.js';
import { guideDiffBody } from './guide-diff.js';
import { editorOf, GuideReader } from './guide-reader.js';
import { GuideTeamBodies } from './guide-team-bodies.js';
import { guideIdOf } from './guides.controller.js';

type Query = Record<string, unknown>;

/** Some routes answer 403 rather than 404 for a guide that does not exist, as the original API does. */
/** The 403 of a guide the caller may not see (or that does not exist, on these routes). */
const GUIDE_PRIVATE = new GuidePrivateError().message;
/** The 403 of a change of who edits a guide by someone else than its author or an Admin. */
const MANAGE_ACCESS = 'Only the author or an Admin may change who edits this guide';

async function forbiddenWhenMissing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GuideNotFoundError) throw new GuidePrivateError();
    throw error;
  }
}

/**
 * A guide's history (its stored revisions, the difference between two, a revert to one) and who
 * may edit it besides its author (collaborators and teams).
 */
@ApiTags('Guides')
@Controller('guides')
export class GuideHistoryController {
  constructor(
    private readonly reader: GuideReader,
    private readonly view: ViewGuide,
    private readonly history: GuideHistory,
    private readonly revert: RevertGuide,
    private readonly viewAccess: ViewGuideAccess,
    private readonly changeAccess: ChangeGuideAccess,
    private readonly users: UserSummaries,
    private readonly teamBodies: GuideTeamBodies,
  ) {}

  @Get(':guideid/revisions')
  @IdParam('guideid', 'The guide id')
  @Endpoint({
    summary: "A guide's revisions, newest first",
    description: 'Paged (`limit`, `offset`). The revisions of a public guide are readable by anyone; those of a private guide by those who may see it.',
    errors: [400, 403, 404],
    notFound: 'Guide not found',
    badRequest: PAGE_BAD_REQUEST,
    forbidden: GUIDE_PRIVATE,
  })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ type: GuideRevisionResponseDto, isArray: true })
  async revisions(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() viewer: Caller | null) {
    const entries = await this.history.execute({ viewer: editorOf(viewer), guideId: guideIdOf(raw), page: parsePage(query) });
    return presentRevisions(entries, await this.reader.authors(entries.map((e) => e.editorId)));
  }

  @Get(':guideid/diff')
  @IdParam('guideid', 'The guide id')
  @Endpoint({
    summary: 'What changed between two revisions of a guide',
    description: 'The changed fields (markup line by line), the steps added, removed, moved and edited (their lines line by line), and a unified diff of the guide as markup text. Either revision may be the older.',
    errors: [400, 403, 404],
    notFound: 'Revision not found',
    badRequest: idRequired('from'),
    forbidden: GUIDE_PRIVATE,
  })
  @ApiQuery({ name: 'from', required: true, type: 'integer', description: 'A revision id of the guide' }) @ApiQuery({ name: 'to', required: true, type: 'integer', description: 'A revision id of the guide' })
  @ApiOkResponse({ type: GuideDiffResponseDto })
  async diff(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() viewer: Caller | null) {
    const guideId = guideIdOf(raw);
    const from = requiredId(query, 'from');
    const to = requiredId(query, 'to');
    const guide = await this.view.current(guideId, editorOf(viewer));
    const [a, b] = await Promise.all([this.view.revision(guide, from), this.view.revision(guide, to)]);
    return guideDiffBody(guide.id, a, b);
  }

  @Post(':guideid/revert')
  @IdParam('guideid', 'The guide id')
  @HttpCode(200)
  @Endpoint({
    summary: 'Restore an older revision as a new one (the guide\'s editors)',
    description: 'The content (fields and steps) of `to_revisionid` becomes the guide\'s, as a new revision; visibility stays. A stale `revisionid` is a 409 whose body is the current guide; a `to_revisionid` that is not a revision of this guide is a 422.',
    token: true,
    errors: [403, 404, 409, 422],
    notFound: 'Guide not found',
    conflict: GuideResponseDto,
    invalid: revisionRequired(),
  })
  @ApiQuery({ name: 'revisionid', required: true, type: 'integer', description: 'The current revision id (or its ETag as `If-Match` instead)' }) @IfMatchRevision() @ApiQuery({ name: 'to_revisionid', required: true, type: 'integer', description: 'The revision to restore' })
  @ApiQuery(SUMMARY_OF_CHANGE_QUERY)
  @ApiOkResponse({ description: 'The guide as it now is', type: GuideResponseDto })
  async revertGuide(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    const guide = await this.revert.execute({
      editor: editorOf(principal)!,
      guideId: guideIdOf(raw),
      revisionid: expectedRevision(req, query),
      toRevisionid: requiredRevision(query, 'to_revisionid'),
      ...changeNoteOf(query),
    });
    return this.reader.present(guide, principal);
  }

  @Get(':guideid/users')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: "A guide's collaborators (users who may edit it besides its author)", description: 'A guide that does not exist, or that the caller may not see, is a 403.', token: true, errors: [403], forbidden: GUIDE_PRIVATE })
  @ApiOkResponse({ type: UserSummaryResponseDto, isArray: true })
  async collaborators(@Param('guideid') raw: string, @CurrentPrincipal() principal: Caller) {
    const { guide } = await forbiddenWhenMissing(() => this.viewAccess.execute({ viewer: editorOf(principal), guideId: this.idOrForbidden(raw) }));
    return this.usersOf(guide);
  }

  @Put(':guideid/users/:userid')
  @IdParam('guideid', 'The guide id') @IdParam('userid', 'The user id')
  @HttpCode(201)
  @Endpoint({ summary: 'Let a user edit the guide (author or Admin)', description: 'Adding a collaborator twice changes nothing.', token: true, errors: [403, 404], notFound: 'Guide not found', forbidden: MANAGE_ACCESS })
  @ApiCreatedResponse({ description: 'The collaborators', type: UserSummaryResponseDto, isArray: true })
  async addCollaborator(@Param('guideid') raw: string, @Param('userid') rawUser: string, @CurrentPrincipal() principal: Caller) {
    const guideId = guideIdOf(raw);
    const userId = await this.users.existingUserId(rawUser);
    return this.usersOf(await this.changeAccess.execute({ editor: editorOf(principal)!, guideId, kind: 'user', id: userId, on: true }));
  }

  @Delete(':guideid/users/:userid')
  @IdParam('guideid', 'The guide id') @IdParam('userid', 'The user id')
  @Endpoint({ summary: 'Take back a collaborator (author or Admin)', description: 'A user who is not a collaborator leaves the list unchanged; a guide that does not exist is a 403.', token: true, errors: [403], forbidden: MANAGE_ACCESS })
  @ApiOkResponse({ type: GuideUsersResponseDto })
  async removeCollaborator(@Param('guideid') raw: string, @Param('userid') rawUser: string, @CurrentPrincipal() principal: Caller) {
    const guideId = this.idOrForbidden(raw);
    const userId = parseId(rawUser);
    const guide = await forbiddenWhenMissing(() => this.changeAccess.execute({ editor: editorOf(principal)!, guideId, kind: 'user', id: userId ?? 0, on: false }));
    return { users: await this.usersOf(guide) };
  }

  @Get(':guideid/teams')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: "A guide's teams (whose members may edit it), and what the caller may do", description: 'A guide that does not exist, or that the caller may not see, is a 403.', token: true, errors: [403], forbidden: GUIDE_PRIVATE })
  @ApiOkResponse({ type: GuideTeamsResponseDto })
  async teams(@Param('guideid') raw: string, @CurrentPrincipal() principal: Caller) {
    const guideId = this.idOrForbidden(raw);
    return forbiddenWhenMissing(async () => {
      const { guide, rights } = await this.viewAccess.execute({ viewer: editorOf(principal), guideId });
      return this.teamsBody(guide, rights.canView, rights.canEdit, rights.canChangePrivacy);
    });
  }

  @Put(':guideid/teams/:teamid')
  @IdParam('guideid', 'The guide id') @IdParam('teamid', 'The team id')
  @HttpCode(201)
  @Endpoint({ summary: 'Let the members of a team edit the guide (author or Admin)', description: 'Adding a team twice changes nothing.', token: true, errors: [403, 404], notFound: 'Team not found', forbidden: MANAGE_ACCESS })
  @ApiCreatedResponse({ type: GuideTeamsResponseDto })
  async addTeam(@Param('guideid') raw: string, @Param('teamid') rawTeam: string, @CurrentPrincipal() principal: Caller) {
    return this.changeTeam(raw, rawTeam, principal, true);
  }

  @Delete(':guideid/teams/:teamid')
  @IdParam('guideid', 'The guide id') @IdParam('teamid', 'The team id')
  @Endpoint({ summary: 'Take back a team (author or Admin)', description: 'A team that is not on the list leaves it unchanged.', token: true, errors: [403, 404], notFound: 'Guide not found', forbidden: MANAGE_ACCESS })
  @ApiOkResponse({ type: GuideTeamsResponseDto })
  async removeTeam(@Param('guideid') raw: string, @Param('teamid') rawTeam: string, @CurrentPrincipal() principal: Caller) {
    return this.changeTeam(raw, rawTeam, principal, false);
  }

  private async changeTeam(raw: string, rawTeam: string, principal: Caller, on: boolean) {
    const guideId = guideIdOf(raw);
    const teamId = parseId(rawTeam);
    if (teamId === null && on) throw new GuideTeamNotFoundError();
    const guide = await this.changeAccess.execute({ editor: editorOf(principal)!, guideId, kind: 'team', id: teamId ?? 0, on });
    // The caller chose the teams: they may see, edit and publish the guide.
    return this.teamsBody(guide, true, true, true);
  }

  private async teamsBody(guide: Guide, canView: boolean, canEdit: boolean, canChangePrivacy: boolean) {
    return { guideTeams: await this.teamBodies.of(guide.access.teamIds), canIViewGuide: canView, canIEditGuide: canEdit, canIChangeGuidePrivacy: canChangePrivacy };
  }

  /** The collaborators as UserSummary objects, by user id, in one lookup. */
  private async usersOf(guide: Guide) {
    const ids = guide.access.userIds;
    const authors = await this.reader.authors(ids);
    return ids.map((id) => authors(id));
  }

  private idOrForbidden(raw: string): GuideId {
    const id = parseId(raw);
    if (id === null) throw new GuidePrivateError();
    return id as GuideId;
  }
}
