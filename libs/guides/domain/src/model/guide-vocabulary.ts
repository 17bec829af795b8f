/** Guide types, in the API's spelling. */
export const GUIDE_TYPES = ['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to'] as const;
export type GuideType = (typeof GUIDE_TYPES)[number];

/** Difficulty labels, as written (English). */
export const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const BULLETS = ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'] as const;
export type Bullet = (typeof BULLETS)[number];

export interface FlagDefinition {
  readonly flagid: string;
  readonly title: string;
  readonly text: string;
  /** Only Admins may set or clear it. */
  readonly privileged: boolean;
}

export const GUIDE_FLAGS: readonly FlagDefinition[] = [
  { flagid: 'GUIDE_STARRED', title: 'Featured Guide', text: 'This guide is featured.', privileged: true },
  { flagid: 'GUIDE_ARCHIVED', title: 'Archived Guide', text: 'This guide is archived and may be out of date.', privileged: true },
  { flagid: 'GUIDE_IN_PROGRESS', title: 'In Progress', text: 'This guide is a work in progress.', privileged: false },
  { flagid: 'GUIDE_USER_CONTRIBUTED', title: 'User-Contributed Guide', text: 'This guide was written by a member of the community.', privileged: false },
  { flagid: 'GUIDE_PREREQ_ONLY', title: 'Prerequisite Only', text: 'This guide is meant to be used as a prerequisite of other guides.', privileged: false },
];

export function flagDefinition(flagid: string): FlagDefinition | undefined {
  return GUIDE_FLAGS.find((f) => f.flagid === flagid);
}

export const MAX_LINES = 8;
export const MAX_LINE_LENGTH = 350;
export const MAX_LEVEL = 2;
export const MAX_STEP_IMAGES = 3;
export const MAX_TITLE_LENGTH = 255;
export const MAX_SUMMARY_LENGTH = 156;
export const MAX_TEXT_LENGTH = 65_536;
export const MAX_ITEMS = 100;
export const MAX_PREREQUISITES = 20;
export const MAX_STEPS = 500;

/** The human `time_required` text the API shows beside the seconds (either bound may be 0: unknown). */
export function timeRequiredText(minSeconds: number, maxSeconds: number): string {
  if (minSeconds <= 0 && maxSeconds <= 0) return 'No estimate';
  const low = formatDuration(minSeconds > 0 ? minSeconds : maxSeconds);
  const high = formatDuration(maxSeconds > 0 ? maxSeconds : minSeconds);
  return low === high ? high : `${low} - ${high}`;
}

/** Minutes below an hour; hours to one decimal above (`1 hour`, `1.5 hours`). */
function formatDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.round((minutes / 60) * 10) / 10;
  return Number.isInteger(hours) ? plural(hours, 'hour') : `${hours} hours`;
}

/**
 * JSON with object keys sorted: equal values give equal text whatever the key order (PostgreSQL's
 * jsonb reorders keys, so stored and sent values are compared this way).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
