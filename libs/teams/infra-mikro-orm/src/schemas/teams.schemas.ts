import { EntitySchema } from '@mikro-orm/core';
import { userStandingTriggerBody } from '@rc/shared-infra-mikro-orm';

// Row schemas: the Team aggregate owns a child table (its memberships), so the repository maps
// it from these rows rather than mapping the domain class.

export interface TeamRow {
  id: number;
  name: string;
  description: string;
  /** `null` once the team is deleted. */
  ownerId: number | null;
  joinCode: string | null;
  createdAt: Date;
  deletedAt: Date | null;
}

export const TeamRowSchema = new EntitySchema<TeamRow>({
  name: 'TeamRow',
  tableName: 'teams',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    name: { type: 'string', length: 255 },
    description: { type: 'text' },
    ownerId: { type: 'integer', nullable: true, fieldName: 'owner_id' },
    joinCode: { type: 'string', length: 64, nullable: true, fieldName: 'join_code' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    deletedAt: { type: 'datetime', nullable: true, fieldName: 'deleted_at' },
  },
});

export interface TeamMemberRow {
  teamId: number;
  userId: number;
  joinedAt: Date;
}

/** A user joining or leaving a team, announced (user objects show team ids; see USER_STANDINGS_CHANNEL). */
export const MEMBER_STANDING_TRIGGER_BODY = userStandingTriggerBody('user_id', ['team_id', 'user_id']);

export const TeamMemberRowSchema = new EntitySchema<TeamMemberRow>({
  name: 'TeamMemberRow',
  tableName: 'team_members',
  triggers: [{ name: 'team_members_standing_notify', timing: 'after', events: ['insert', 'update', 'delete'], forEach: 'row', body: MEMBER_STANDING_TRIGGER_BODY }],
  properties: {
    teamId: { type: 'integer', primary: true, fieldName: 'team_id' },
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    joinedAt: { type: 'datetime', fieldName: 'joined_at' },
  },
});

export interface TeamRepairServiceRow {
  teamId: number;
  wikiId: number;
  position: number;
}

export const TeamRepairServiceSchema = new EntitySchema<TeamRepairServiceRow>({
  name: 'TeamRepairService',
  tableName: 'team_repair_services',
  properties: {
    teamId: { type: 'integer', primary: true, fieldName: 'team_id' },
    wikiId: { type: 'integer', primary: true, fieldName: 'wiki_id' },
    position: { type: 'integer' },
  },
});

export const teamsSchemas = [TeamRowSchema, TeamMemberRowSchema, TeamRepairServiceSchema];
/** In an order TRUNCATE accepts. */
export const teamsTables = ['team_repair_services', 'team_members', 'teams'];
