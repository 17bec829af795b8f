import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Caller } from '@rc/identity-contracts';
import { parseId, parsePage } from '@rc/shared-kernel';
import {
  CreateTeam,
  JoinOrAddMember,
  ListTeams,
  NotATeamMemberError,
  RemoveMember,
  TeamManagerRequiredError,
  TeamNotFoundError,
  TeamUserNotFoundError,
  teamViewOf,
  ViewTeam,
  WrongJoinCodeError,
  type TeamActor,
  type TeamId,
} from '@rc/teams-domain';
import { CurrentPrincipal, Endpoint, order, timestamp, UserSummaryResponseDto, IdParam } from '@rc/shared-http';
import { CreateTeamDto } from './dto/team.request.dto.js';
import { TeamResponseDto } from './dto/team.response.dto.js';
import { TeamReader } from './team-reader.js';

type Query = Record<string, unknown>;

export const actorOf = (principal: Caller): TeamActor => ({ userId: principal.userId, isAdmin: principal.role === 'Admin' });

/** A path id that is not a positive integer names no team. */
export function teamIdOf(raw: string): TeamId {
  const id = parseId(raw);
  if (id === null) throw new TeamNotFoundError();
  return id as TeamId;
}

function userIdOf(raw: string, notFound: () => Error): number {
  const id = parseId(raw);
  if (id === null) throw notFound();
  return id;
}

/** `join_code` from the query string (the last one when repeated). */
function joinCodeOf(query: Query): string | undefined {
  const raw = query['join_code'];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof value === 'string' ? value : undefined;
}

const MEMBERS = { description: 'The members (UserSummary without privileges), ordered by userid', type: UserSummaryResponseDto, isArray: true };

@ApiTags('Teams')
@Controller('teams')
export class TeamsController {
  constructor(
    private readonly reader: TeamReader,
    private readonly listTeams: ListTeams,
    private readonly viewTeam: ViewTeam,
    private readonly createTeam: CreateTeam,
    private readonly joinOrAdd: JoinOrAddMember,
    private readonly removeMember: RemoveMember,
  ) {}

  @Get()
  @Endpoint({
    summary: 'List teams',
    description: 'Live teams by `teamid` (`order` ASC or DESC), paged. `newMemberSince` (UNIX seconds) keeps the teams with a member who joined at or after that time.',
    errors: [400],
  })
  @ApiQuery({ name: 'newMemberSince', required: false, type: 'integer', description: 'UNIX seconds' }) @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ description: 'Team objects (reference §3.14)', type: TeamResponseDto, isArray: true })
  async list(@Query() query: Query) {
    const views = await this.listTeams.execute({ filter: { order: order(query), newMemberSince: timestamp(query, 'newMemberSince') }, page: parsePage(query) });
    return this.reader.teams(views);
  }

  @Get(':teamid')
  @IdParam('teamid', 'The team id')
  @Endpoint({ summary: "A team's members", description: 'The member list, not the Team object (as the original API): every member, ordered by userid.', errors: [404], notFound: 'Team not found' })
  @ApiOkResponse(MEMBERS)
  async members(@Param('teamid') raw: string) {
    const team = await this.viewTeam.execute(teamIdOf(raw));
    return this.reader.members(team.memberIds);
  }

  @Post()
  @HttpCode(201)
  @Endpoint({
    summary: 'Create a team (extension)',
    description:
      'An extension of the original API, which has no way to create a team: any signed-in user creates one and becomes its owner and first member. ' +
      'With a `join_code`, others must send it to join by themselves.',
    token: true,
    errors: [422],
  })
  @ApiBody({ type: CreateTeamDto }) @ApiCreatedResponse({ description: 'The new team (reference §3.14)', type: TeamResponseDto })
  async create(@Body() body: CreateTeamDto, @CurrentPrincipal() principal: Caller) {
    const team = await this.createTeam.execute({ actor: actorOf(principal), fields: body });
    const [created] = await this.reader.teams([teamViewOf(team)]);
    return created;
  }

  @Put(':teamid/users/:userid')
  @IdParam('teamid', 'The team id')
  @IdParam('userid', 'The user id')
  @Endpoint({
    summary: 'Join a team, or add a member',
    description:
      'Yourself: anyone may join; a team with a join code needs it as `join_code` (wrong or missing: 403; Admins need none). ' +
      'Someone else: the owner or an Admin adds them directly (the original sends an invitation). Already a member: nothing changes. ' +
      'An unknown team or user is a 404.',
    token: true,
    errors: [403, 404], notFound: 'Team not found', forbidden: new WrongJoinCodeError().message,
  })
  @ApiQuery({ name: 'join_code', required: false, type: String, description: "The team's join code, when joining by yourself" })
  @ApiOkResponse(MEMBERS)
  async join(@Param('teamid') rawTeam: string, @Param('userid') rawUser: string, @Query() query: Query, @CurrentPrincipal() principal: Caller) {
    const teamId = teamIdOf(rawTeam);
    const team = await this.joinOrAdd.execute({ actor: actorOf(principal), teamId, userId: userIdOf(rawUser, () => new TeamUserNotFoundError()), joinCode: joinCodeOf(query) });
    return this.reader.members(team.memberIds);
  }

  @Delete(':teamid/users/:userid')
  @IdParam('teamid', 'The team id')
  @IdParam('userid', 'The user id')
  @HttpCode(200)
  @Endpoint({
    summary: 'Leave a team, or remove a member',
    description:
      'The member themself, the owner or an Admin. Removing the owner makes the earliest remaining member the owner. ' +
      'Removing the last member deletes the team (it answers `[]`, and the team is gone for good: 404 afterwards). A user who is not a member is a 404.',
    token: true,
    errors: [403, 404], notFound: 'Team not found', forbidden: new TeamManagerRequiredError().message,
  })
  @ApiOkResponse({ ...MEMBERS, description: 'The remaining members, ordered by userid' })
  async leave(@Param('teamid') rawTeam: string, @Param('userid') rawUser: string, @CurrentPrincipal() principal: Caller) {
    const teamId = teamIdOf(rawTeam);
    const team = await this.removeMember.execute({ actor: actorOf(principal), teamId, userId: userIdOf(rawUser, () => new NotATeamMemberError()) });
    return this.reader.members(team.memberIds);
  }
}
