import { EntitySchema } from '@mikro-orm/core';
import { userStandingTriggerBody } from '@rc/shared-infra-mikro-orm';

export interface BadgeRow {
  id: number;
  name: string;
  type: string;
  category: string;
  description: string;
  multiple: boolean;
  icon: string | null;
  image: string;
  secondaryColor: string;
  ruleMetric: string | null;
  ruleThreshold: number | null;
  enabled: boolean;
}

export const BadgeRowSchema = new EntitySchema<BadgeRow>({
  name: 'BadgeRow',
  tableName: 'badges',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    name: { type: 'string', length: 64, unique: 'badges_name_key' },
    type: { type: 'string', length: 8 },
    category: { type: 'string', length: 16 },
    description: { type: 'text' },
    multiple: { type: 'boolean' },
    icon: { type: 'string', length: 64, nullable: true },
    image: { type: 'text' },
    secondaryColor: { type: 'string', length: 16, fieldName: 'secondary_color' },
    ruleMetric: { type: 'string', length: 32, nullable: true, fieldName: 'rule_metric' },
    ruleThreshold: { type: 'integer', nullable: true, fieldName: 'rule_threshold' },
    enabled: { type: 'boolean' },
  },
});

export interface BadgeAwardRow {
  userId: number;
  badgeId: number;
  occasion: string;
  awardedAt: Date;
}

export const BadgeAwardRowSchema = new EntitySchema<BadgeAwardRow>({
  name: 'BadgeAwardRow',
  tableName: 'badge_awards',
  properties: {
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    badgeId: { type: 'integer', primary: true, fieldName: 'badge_id' },
    occasion: { type: 'string', length: 64, primary: true },
    awardedAt: { type: 'datetime', fieldName: 'awarded_at' },
  },
});

export interface LedgerRow {
  id: string;
  userId: number;
  points: number;
  cause: string;
  guideId: number | null;
  badgeId: number | null;
  eventId: string | null;
  createdAt: Date;
}

export const LedgerRowSchema = new EntitySchema<LedgerRow>({
  name: 'LedgerRow',
  tableName: 'reputation_ledger',
  properties: {
    id: { type: 'bigint', primary: true },
    userId: { type: 'integer', fieldName: 'user_id' },
    points: { type: 'integer' },
    cause: { type: 'string', length: 32 },
    guideId: { type: 'integer', nullable: true, fieldName: 'guide_id' },
    badgeId: { type: 'integer', nullable: true, fieldName: 'badge_id' },
    eventId: { type: 'bigint', nullable: true, fieldName: 'event_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export interface TotalRow {
  userId: number;
  points: number;
}

/** A user's points, announced when they change (user objects show them; see USER_STANDINGS_CHANNEL). */
export const TOTAL_STANDING_TRIGGER_BODY = userStandingTriggerBody('user_id', ['points']);

export const TotalRowSchema = new EntitySchema<TotalRow>({
  name: 'ReputationTotalRow',
  tableName: 'reputation_totals',
  triggers: [{ name: 'reputation_totals_standing_notify', timing: 'after', events: ['insert', 'update', 'delete'], forEach: 'row', body: TOTAL_STANDING_TRIGGER_BODY }],
  properties: {
    userId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'user_id' },
    points: { type: 'integer' },
  },
});

export interface FactRow {
  userId: number;
  kind: string;
  guideId: number;
  otherUserId: number;
  since: Date;
}

export const FactRowSchema = new EntitySchema<FactRow>({
  name: 'ReputationFactRow',
  tableName: 'reputation_facts',
  properties: {
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    kind: { type: 'string', length: 24, primary: true },
    guideId: { type: 'integer', primary: true, fieldName: 'guide_id' },
    otherUserId: { type: 'integer', primary: true, fieldName: 'other_user_id' },
    since: { type: 'datetime' },
  },
});

export interface InboxRow {
  eventId: string;
  handledAt: Date;
}

export const InboxRowSchema = new EntitySchema<InboxRow>({
  name: 'ReputationInboxRow',
  tableName: 'reputation_inbox',
  properties: {
    eventId: { type: 'bigint', primary: true, autoincrement: false, fieldName: 'event_id' },
    handledAt: { type: 'datetime', fieldName: 'handled_at' },
  },
});

export const reputationSchemas = [BadgeRowSchema, BadgeAwardRowSchema, LedgerRowSchema, TotalRowSchema, FactRowSchema, InboxRowSchema];
/** Tables holding user data (the badge catalogue is reference data seeded by the migration). */
export const reputationTables = ['badge_awards', 'reputation_ledger', 'reputation_totals', 'reputation_facts', 'reputation_inbox'];
