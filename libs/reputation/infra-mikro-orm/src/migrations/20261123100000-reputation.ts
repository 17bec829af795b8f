import { Migration } from '@mikro-orm/migrations';

/**
 * The reputation context: the badge catalogue (seeded here), awards, the points ledger with each
 * user's running total, the facts points are given for, and the ids of the events already handled.
 */
export class ReputationInitial extends Migration {
  override name = '20261123100000-reputation';

  up(): void {
    this.addSql(`
      CREATE TABLE badges (
        id integer PRIMARY KEY,
        name varchar(64) NOT NULL UNIQUE,
        type varchar(8) NOT NULL CHECK (type IN ('bronze', 'silver', 'gold')),
        category varchar(16) NOT NULL CHECK (category IN ('badgeGuide', 'badgeAnswers', 'badgeGeneral', 'badgeWorkbench')),
        description text NOT NULL,
        multiple boolean NOT NULL,
        icon varchar(64) NULL,
        image text NOT NULL,
        secondary_color varchar(16) NOT NULL,
        rule_metric varchar(32) NULL CHECK (rule_metric IN ('guides_published', 'teardowns_published', 'guides_completed', 'reputation', 'guide_completions', 'guide_favorites')),
        rule_threshold integer NULL CHECK (rule_threshold > 0),
        enabled boolean NOT NULL,
        CHECK ((rule_metric IS NULL) = (rule_threshold IS NULL))
      );

      CREATE TABLE badge_awards (
        user_id integer NOT NULL,
        badge_id integer NOT NULL REFERENCES badges (id),
        occasion varchar(64) NOT NULL,
        awarded_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, badge_id, occasion)
      );
      CREATE INDEX badge_awards_badge_idx ON badge_awards (badge_id, user_id);

      CREATE TABLE reputation_ledger (
        id bigserial PRIMARY KEY,
        user_id integer NOT NULL,
        points integer NOT NULL,
        cause varchar(32) NOT NULL CHECK (cause IN ('guide_published', 'guide_unpublished', 'guide_completed', 'guide_uncompleted', 'guide_favorited', 'guide_unfavorited', 'badge')),
        guide_id integer NULL,
        badge_id integer NULL REFERENCES badges (id),
        event_id bigint NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX reputation_ledger_user_idx ON reputation_ledger (user_id, id);

      CREATE TABLE reputation_totals (
        user_id integer PRIMARY KEY,
        points integer NOT NULL
      );

      CREATE TABLE reputation_facts (
        user_id integer NOT NULL,
        kind varchar(24) NOT NULL CHECK (kind IN ('published', 'teardown_published', 'completed', 'completion_received', 'favorite_received')),
        guide_id integer NOT NULL,
        other_user_id integer NOT NULL,
        since timestamptz NOT NULL,
        PRIMARY KEY (user_id, kind, guide_id, other_user_id)
      );

      CREATE TABLE reputation_inbox (
        event_id bigint PRIMARY KEY,
        handled_at timestamptz NOT NULL
      );

      INSERT INTO badges (id, name, type, category, description, multiple, icon, image, secondary_color, rule_metric, rule_threshold, enabled) VALUES
        (1, 'Author', 'bronze', 'badgeGuide', 'Published a first guide.', false, 'fa-pencil', '', '#cd7f32', 'guides_published', 1, true),
        (2, 'Prolific Author', 'silver', 'badgeGuide', 'Published ten guides.', false, 'fa-book', '', '#c0c0c0', 'guides_published', 10, true),
        (3, 'Master Author', 'gold', 'badgeGuide', 'Published fifty guides.', false, 'fa-trophy', '', '#ffd700', 'guides_published', 50, true),
        (4, 'Teardown', 'bronze', 'badgeGuide', 'Published a first teardown.', false, 'fa-cogs', '', '#cd7f32', 'teardowns_published', 1, true),
        (5, 'Fixer', 'bronze', 'badgeGeneral', 'Completed a first guide.', false, 'fa-wrench', '', '#cd7f32', 'guides_completed', 1, true),
        (6, 'Repair Veteran', 'silver', 'badgeGeneral', 'Completed twenty-five guides.', false, 'fa-medkit', '', '#c0c0c0', 'guides_completed', 25, true),
        (7, 'Helpful Guide', 'bronze', 'badgeGuide', 'A guide of yours was completed by someone else (once per guide).', true, 'fa-thumbs-up', '', '#cd7f32', 'guide_completions', 1, true),
        (8, 'Popular Guide', 'silver', 'badgeGuide', 'A guide of yours was completed by twenty-five other people (once per guide).', true, 'fa-users', '', '#c0c0c0', 'guide_completions', 25, true),
        (9, 'Favourite', 'bronze', 'badgeGuide', 'A guide of yours was favourited by five other people (once per guide).', true, 'fa-star', '', '#cd7f32', 'guide_favorites', 5, true),
        (10, 'Established', 'bronze', 'badgeGeneral', 'Earned 100 reputation.', false, 'fa-check', '', '#cd7f32', 'reputation', 100, true),
        (11, 'Trusted', 'silver', 'badgeGeneral', 'Earned 1,000 reputation.', false, 'fa-shield', '', '#c0c0c0', 'reputation', 1000, true),
        (12, 'Luminary', 'gold', 'badgeGeneral', 'Earned 10,000 reputation.', false, 'fa-sun-o', '', '#ffd700', 'reputation', 10000, true),
        (13, 'Answerer', 'bronze', 'badgeAnswers', 'Answered a question (this service has no answers forum: disabled).', false, 'fa-comment', '', '#cd7f32', NULL, NULL, false),
        (14, 'Workbench', 'bronze', 'badgeWorkbench', 'Added a device to the workbench (this service has no workbench: disabled).', false, 'fa-laptop', '', '#cd7f32', NULL, NULL, false);
    `);
  }
}
