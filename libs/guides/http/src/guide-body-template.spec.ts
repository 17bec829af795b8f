import { createHash } from 'node:crypto';
import { Guide, type GuideId, type GuideSummaryView } from '@rc/guides-domain';
import type { GuideThreads, PublishedComment } from '@rc/community-contracts';
import type { UserSummary } from '@rc/identity-contracts';
import { wikiRendererFor } from '@rc/shared-http';
import { fillTemplate, GUIDE_BODY_PRESENTATION, guideBodyFormat, templateOf, usersIn, viewsIn, withViews, type UserParts } from './guide-body-template.js';
import { authorName, presentAuthor, presentGuide, type PresentationContext } from './guide.presenter.js';

const BASE_URL = 'https://repair.example';
const T0 = new Date('2026-01-01T00:00:00Z');

/** A user as the identity context's UserSummaries shows it, with the standing given. */
const user = (id: number, username: string, standing = { reputation: 0, teams: [] as number[] }): UserSummary => ({
  userid: id,
  username,
  unique_username: `u${id}`,
  join_date: T0.getTime() / 1000,
  image: null,
  reputation: standing.reputation,
  url: `${BASE_URL}/User/${id}/${encodeURIComponent(username).replace(/%20/g, '+')}`,
  teams: standing.teams,
});

/** A guide with markup, steps of every media kind, parts, tools, flags and a prerequisite. */
function fixture() {
  const created = Guide.create(7 as GuideId, { userId: 3, isAdmin: false }, {
    category: 'iPhone 12',
    type: 'replacement',
    subject: 'Battery',
    summary: 'Swap a <worn> battery & test it',
    introduction: "'''Before''' you start, see [[iPhone 12 Teardown|the teardown]].\n\n* discharge below 25%",
    conclusion: 'Reassemble in [link|https://repair.example/Guide/1|reverse order].',
    time_required_min: 900,
    time_required_max: 3600,
    difficulty: 'Moderate',
    parts: [{ text: 'Battery', quantity: 1, url: '/Item/battery', thumbnail: '', notes: '', type: 'part' }],
    tools: [{ text: 'Spudger', quantity: 1, url: '/Item/spudger', thumbnail: '', notes: 'plastic', type: 'tool' }],
    flags: ['GUIDE_USER_CONTRIBUTED'],
    prerequisites: [9],
  }, T0);
  const guide = Guide.restore({ ...created.state, revisionid: 41, isPublic: true, publishedAt: T0 }, [
    { id: 1, orderby: 1, revisionid: 42, title: 'Open', lines: [{ lineid: 10, text: "Heat the ''edge'' <b>", bullet: 'black', level: 0 }, { lineid: 11, text: 'Pry', bullet: 'icon_caution', level: 1 }], media: { type: 'image', imageIds: [5, 6] } },
    { id: 2, orderby: 2, revisionid: 43, title: '', lines: [{ lineid: 12, text: 'Watch', bullet: 'black', level: 0 }], media: { type: 'video', objectId: 77 } },
  ], undefined, { views: 12, favorites: 2, completions: 1, contributors: [{ userId: 5, revisions: 1, firstRevisionid: 30 }, { userId: 3, revisions: 3, firstRevisionid: 20 }], translators: [{ userId: 4, revisions: 2, firstRevisionid: 50 }] });
  const prerequisite: GuideSummaryView = {
    guideid: 9, locale: 'en', revisionid: 30, modifiedAt: T0, prereqModifiedAt: null, type: 'technique', category: 'iPhone 12', subject: 'Screen',
    title: 'Opening "the" screen', summary: 'How', difficulty: 'Easy', timeRequiredMax: 600, isPublic: true, authorId: 4, flags: [], imageId: 8,
  };
  const comment = (commentid: number, authorId: number, context: 'guide' | 'step', contextid: number, replies: PublishedComment[] = []): PublishedComment => ({
    commentid, locale: null, context, contextid, parentid: replies.length ? null : 1, title: '', text_raw: 'Nice', text_rendered: '<p>Nice</p>',
    date: 1, modified_date: 0, status: 'public', rating: 0, authorId, replies,
  });
  const threads: GuideThreads = {
    guides: new Map([[7, [comment(1, 5, 'guide', 7, [comment(2, 3, 'guide', 7)])]]]),
    steps: new Map([[2, [comment(3, 4, 'step', 2)]]]),
  };
  return { guide, prerequisite, threads };
}

const authors = new Map([[3, user(3, 'Ada "the" Fixer', { reputation: 120, teams: [2, 5] })], [4, user(4, 'Lin')], [5, user(5, 'Commenter', { reputation: 7, teams: [] })]]);

describe('guide body templates', () => {
  const renderer = wikiRendererFor(BASE_URL);
  const viewer = { canEdit: false, favorited: false, completed: false };
  const { guide, prerequisite, threads } = fixture();
  const presented = (ctx: PresentationContext) => presentGuide(guide, ctx, { prerequisites: [prerequisite], inlined: [], viewer, comments: { threads } });
  const full: PresentationContext = { baseUrl: BASE_URL, renderer, authors, images: new Map() };
  const parts = (ctx: PresentationContext): UserParts => ({ summary: (id) => presentAuthor(id, ctx), username: (id) => authorName(id, ctx) });

  it('fills in to exactly the body presented with its users', () => {
    const template = templateOf(presented({ baseUrl: BASE_URL, renderer, authors: new Map(), images: new Map() }));
    expect(usersIn(template).sort()).toEqual([3, 4, 5]);
    expect(fillTemplate(template, parts(full))).toBe(JSON.stringify(presented(full)));
    // Comment authors (replies and step comments included) are user objects filled in when served.
    const filled = JSON.parse(fillTemplate(template, parts(full)));
    expect(filled.comments[0].author).toMatchObject({ userid: 5, reputation: 7 });
    expect(filled.comments[0].replies[0].author).toMatchObject({ userid: 3, reputation: 120 });
    expect(filled.steps[1].comments[0].author).toMatchObject({ userid: 4, username: 'Lin' });
    // Contributors too, with their share: the creator first.
    expect(filled.contributors).toEqual([
      { ...user(3, 'Ada "the" Fixer', { reputation: 120, teams: [2, 5] }), percent: 75, profile_url: user(3, 'Ada "the" Fixer').url, avatar_url: null },
      { ...user(5, 'Commenter', { reputation: 7, teams: [] }), percent: 25, profile_url: user(5, 'Commenter').url, avatar_url: null },
    ]);
    // And translators, in the same shape.
    expect(filled.translators).toEqual([{ ...user(4, 'Lin'), percent: 100, profile_url: user(4, 'Lin').url, avatar_url: null }]);
    expect([filled.favorites_count, filled.completions_count, filled.views]).toEqual([2, 1, 12]);
  });

  it('sets the views of a served body in place, its last key, and nothing else', () => {
    const json = fillTemplate(templateOf(presented({ baseUrl: BASE_URL, renderer, authors: new Map(), images: new Map() })), parts(full));
    expect(viewsIn(json)).toBe(12);
    const updated = withViews(json, 1234);
    expect(viewsIn(updated)).toBe(1234);
    expect({ ...JSON.parse(updated), views: 12 }).toEqual(JSON.parse(json));
    // A body whose last key is not views is left alone.
    expect(withViews('{"views":1,"title":"x"}', 5)).toBe('{"views":1,"title":"x"}');
    expect(viewsIn('{"summary":"\\"views\\":3}"}')).toBeNull();
  });

  it('shows users as they are when filled, deleted ones as the presenter does', () => {
    const template = templateOf(presented({ baseUrl: BASE_URL, renderer, authors: new Map(), images: new Map() }));
    const filled = JSON.parse(fillTemplate(template, parts({ baseUrl: BASE_URL, renderer, authors: new Map([[3, user(3, 'Renamed')]]), images: new Map() })));
    expect(filled.author).toMatchObject({ userid: 3, username: 'Renamed', reputation: 0, teams: [] });
    expect(filled.prerequisites[0]).toMatchObject({ userid: 4, username: 'Deleted user' });
  });

  it('leaves text that looks like a placeholder alone: only this body\'s random marker counts', () => {
    const body = presented({ baseUrl: BASE_URL, renderer, authors: new Map(), images: new Map() });
    const first = templateOf(body);
    const forged = { ...body, summary: `${first.marker}a4`, title: `"${first.marker}n3"` };
    const second = templateOf(forged);
    expect(second.marker).not.toBe(first.marker);
    const filled = JSON.parse(fillTemplate(second, parts(full)));
    expect(filled.summary).toBe(`${first.marker}a4`);
    expect(filled.title).toBe(`"${first.marker}n3"`);
    expect(usersIn(second).sort()).toEqual([3, 4, 5]);
  });

  it('names its format by presentation and base URL', () => {
    expect(guideBodyFormat(BASE_URL)).toBe(guideBodyFormat(BASE_URL));
    expect(guideBodyFormat(BASE_URL)).not.toBe(guideBodyFormat('https://other.example'));
    expect(guideBodyFormat(BASE_URL).startsWith(`${GUIDE_BODY_PRESENTATION}:`)).toBe(true);
  });

  /**
   * Stored bodies are served while their format holds: a change to what a guide body shows, or to
   * how it is rendered, must come with a new GUIDE_BODY_PRESENTATION, or instances would serve
   * bodies of the old presentation until each guide changes. This fixture's template, by
   * presentation: when it changes, add the new hash under a new presentation number.
   */
  it('changes its presentation number whenever the presentation changes', () => {
    const KNOWN: Record<number, string> = {
      1: 'wa4fiRHJbzoqHye53yctFAqRHkUN-O8CuaJmj-kW4EY',
      2: '82pWcuhyGAUZ21SlAUrAge2CnGDwge4mFGXo1pnIdyI',
      3: 'eoLspKED-isg-YDhQ4eZBhtK9lk4sPXZ6b8_kHhLKpA',
      4: 'AsPTnQTitxlWjlSQpP23Hw89Ug86bIuOEmUaz5QBjAw',
      5: 'sGcaQ1hhXX9lAhY-Ad0h3x6wDi83psD-jZ-GxNHlKkU',
      6: 'JhuV3zAv1OYUdXR5_aYDr9k3SKq3RAtPCBzSip5T8C4',
    };
    const { template } = templateOf(presented({ baseUrl: BASE_URL, renderer, authors: new Map(), images: new Map() }), 'MARKER');
    const hash = createHash('sha256').update(template).digest('base64url');
    const earlier = Object.entries(KNOWN).filter(([n]) => Number(n) !== GUIDE_BODY_PRESENTATION).map(([, h]) => h);
    expect(earlier).not.toContain(hash);
    expect({ presentation: GUIDE_BODY_PRESENTATION, hash }).toEqual({ presentation: GUIDE_BODY_PRESENTATION, hash: KNOWN[GUIDE_BODY_PRESENTATION] });
  });
});
