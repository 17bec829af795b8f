import { EntitySchema } from '@mikro-orm/core';

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

export const TeamMemberRowSchema = new EntitySchema<TeamMemberRow>({
  name: 'TeamMemberRow',
  tableName: 'team_members',
  properties: {
    teamId: { type: 'integer', primary: true, fieldName: 'team_id' },
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    joinedAt: { type: 'datetime', fieldName: 'joined_at' },
  },
});

export const teamsSchemas = [TeamRowSchema, TeamMemberRowSchema];
/** In an order TRUNCATE accepts. */
export const teamsTables = ['team_members', 'teams'];
