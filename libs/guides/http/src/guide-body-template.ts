import { createHash, randomBytes } from 'node:crypto';
import type { UserSummary } from '@rc/identity-contracts';

/**
 * A guide body serialized without the user objects it shows, which change on their own (names,
 * reputation, teams): in their place stand placeholders, strings made of this body's random
 * `marker` (which no text of the guide can know), a kind and a user id. The author (and each
 * comment's author) becomes `"<marker>a<id>"`, a prerequisite's `username` `"<marker>n<id>"`, a
 * contributor (or translator) `"<marker>c<id>p<percent>"`. Filled in when served.
 */
export interface BodyTemplate {
  readonly marker: string;
  readonly template: string;
}

/** What a body shows of a user: the author object (UserSummary), or a prerequisite's author name. */
export interface UserParts {
  summary(userId: number): UserSummary;
  username(userId: number): string;
}

interface TemplatedComment {
  readonly author: { readonly userid: number };
  readonly replies: readonly TemplatedComment[];
}

interface TemplatedBody {
  readonly author: { readonly userid: number };
  readonly contributors: readonly { readonly userid: number; readonly percent: number }[];
  readonly translators: readonly { readonly userid: number; readonly percent: number }[];
  readonly prerequisites: readonly { readonly userid: number; readonly username: string }[];
  readonly comments: readonly TemplatedComment[];
  readonly steps: readonly { readonly comments: readonly TemplatedComment[] }[];
}

/** Comments (and their replies) with their author objects as placeholders. */
const templatedComments = (comments: readonly TemplatedComment[], marker: string): unknown[] =>
  comments.map((c) => ({ ...c, author: `${marker}a${c.author.userid}`, replies: templatedComments(c.replies, marker) }));

/** 18 random bytes: 24 characters of [A-Za-z0-9_-], a fresh one per body. */
const newMarker = () => randomBytes(18).toString('base64url');

/** Serializes a presented guide body with placeholders for its user objects (their values are ignored). */
export function templateOf(body: TemplatedBody, marker = newMarker()): BodyTemplate {
  const templated = {
    ...body,
    author: `${marker}a${body.author.userid}`,
    contributors: body.contributors.map((c) => `${marker}c${c.userid}p${c.percent}`),
    translators: body.translators.map((c) => `${marker}c${c.userid}p${c.percent}`),
    prerequisites: body.prerequisites.map((p) => ({ ...p, username: `${marker}n${p.userid}` })),
    comments: templatedComments(body.comments, marker),
    steps: body.steps.map((step) => ({ ...step, comments: templatedComments(step.comments, marker) })),
  };
  return { marker, template: JSON.stringify(templated) };
}

const placeholders = (marker: string) => new RegExp(`"${marker}([anc])([0-9]+)(?:p([0-9]+))?"`, 'g');

/** The users whose parts the template needs, each once. */
export function usersIn(t: BodyTemplate): number[] {
  const ids = new Set<number>();
  for (const m of t.template.matchAll(placeholders(t.marker))) ids.add(Number(m[2]));
  return [...ids];
}

/** The body's JSON: the template with every placeholder replaced by the user part it stands for. */
export function fillTemplate(t: BodyTemplate, users: UserParts): string {
  return t.template.replace(placeholders(t.marker), (_, kind: string, id: string, percent: string | undefined) => {
    if (kind === 'c') {
      const summary = users.summary(Number(id));
      return JSON.stringify({ ...summary, percent: Number(percent), profile_url: summary.url, avatar_url: null });
    }
    return JSON.stringify(kind === 'a' ? users.summary(Number(id)) : users.username(Number(id)));
  });
}

/**
 * The body's JSON with its `views` set to `views`: the body's last key (see presentGuide), so the
 * last `"views":` of the text is it (JSON escapes the quotes of any text, so no string can look
 * like a key). A body without it comes back unchanged.
 */
export function withViews(json: string, views: number): string {
  const at = json.lastIndexOf('"views":');
  if (at < 0 || !/^"views":[0-9]+\}$/.test(json.slice(at))) return json;
  return `${json.slice(0, at)}"views":${views}}`;
}

/** The `views` a body shows (see withViews), or `null`. */
export function viewsIn(json: string): number | null {
  const at = json.lastIndexOf('"views":');
  const match = at < 0 ? null : /^"views":([0-9]+)\}$/.exec(json.slice(at));
  return match ? Number(match[1]) : null;
}

/**
 * Bodies stored in the read model are served only in the format they were built in: this names the
 * presentation (bump `GUIDE_BODY_PRESENTATION` whenever what a guide body shows or how it is
 * rendered changes; a test fails until it is) and the base URL the links are built from.
 */
export const GUIDE_BODY_PRESENTATION = 6;

export function guideBodyFormat(baseUrl: string): string {
  return `${GUIDE_BODY_PRESENTATION}:${createHash('sha256').update(baseUrl).digest('base64url').slice(0, 12)}`;
}
