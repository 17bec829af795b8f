import type { INestApplicationContext } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { CreateWiki, TranslateWiki, type WikiEditor } from '@rc/catalog-domain';
import { AddStep, CreateGuide, EditGuide, MarkGuide, TranslateGuide, TranslateStep, type Editor, type Guide, type GuideInput, type StepInput } from '@rc/guides-domain';
import { EditProfile, EnsureAdmin, RegisterApp, RegisterUser, type Principal, type UserId } from '@rc/identity-domain';
import { loadDemoTeams } from './teams-demo.js';
import { DEMO_DATA_MARK } from './demo-marks.js';
import { DemoPictures } from './demo-pictures.js';

/** The demo app id and accounts the README names, so a newcomer can log in with curl. */
export const DEMO_APP_ID = 'demo-app-id';
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'admin-demo-password', username: 'Ada Admin' },
  alice: { email: 'alice@example.com', password: 'alice-demo-password', username: 'Alice Fixwell', uniqueUsername: 'alice' },
  bob: { email: 'bob@example.com', password: 'bob-demo-password', username: 'Bob Solder', uniqueUsername: 'bob' },
} as const;

/** What a start did about the demo content, for its log line. */
export type DemoOutcome =
  | { readonly loaded: true; readonly categories: number; readonly guides: number; readonly images: number }
  | { readonly loaded: false; readonly reason: string };

/**
 * Loads the demo content once in the life of a database: in one transaction with the mark that
 * records it (`provisioning_marks`), so a crash loses the whole load and two instances starting
 * together load it once (the second waits on the mark's key, then finds it). Accounts do not stop
 * it (an admin provisioned by ADMIN_EMAIL is not content); guides or wiki pages do, since demo
 * content is never mixed into real content. Never throws: what prevents the load is the outcome.
 */
export async function loadDemoData(app: INestApplicationContext): Promise<DemoOutcome> {
  const em = app.get(MikroORM).em;
  try {
    return await em.transactional(async (tx) => {
      const claimed = await tx.execute<{ name: string }[]>(
        `INSERT INTO provisioning_marks (name) VALUES ('${DEMO_DATA_MARK}') ON CONFLICT (name) DO NOTHING RETURNING name`,
      );
      if (!claimed.length) {
        const [mark] = await tx.execute<{ done_at: string }[]>(`SELECT to_char(done_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS done_at FROM provisioning_marks WHERE name = '${DEMO_DATA_MARK}'`);
        return { loaded: false, reason: `loaded once already (${mark?.done_at ?? 'earlier'}); it is loaded only once` };
      }
      const [content] = await tx.execute<{ guides: number; wikis: number }[]>(
        'SELECT (SELECT count(*)::int FROM guides) AS guides, (SELECT count(*)::int FROM wiki_pages) AS wikis',
      );
      if (content && (content.guides > 0 || content.wikis > 0)) {
        await tx.execute(`UPDATE provisioning_marks SET detail = '{"skipped": "the database held content"}'::jsonb WHERE name = '${DEMO_DATA_MARK}'`);
        return { loaded: false, reason: `the database already holds content (${content.guides} guides, ${content.wikis} wiki pages); demo content is loaded only into a database without any` };
      }
      const loaded = await loadContent(app);
      await tx.execute(`UPDATE provisioning_marks SET detail = '${JSON.stringify(loaded)}'::jsonb WHERE name = '${DEMO_DATA_MARK}'`);
      return { loaded: true, ...loaded };
    });
  } catch (error) {
    return { loaded: false, reason: `loading failed and was rolled back: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function loadContent(app: INestApplicationContext): Promise<{ categories: number; guides: number; images: number }> {
  await app.get(RegisterApp).execute({ appId: DEMO_APP_ID, name: 'Demo application', ifAbsent: true });
  const { user: admin } = await app.get(EnsureAdmin).execute(DEMO_ACCOUNTS.admin);
  const actor: Principal = { userId: admin.id, role: 'Admin', tokenDigest: '' };
  const editors: Editor[] = [];
  for (const account of [DEMO_ACCOUNTS.alice, DEMO_ACCOUNTS.bob]) {
    editors.push({ userId: (await app.get(RegisterUser).execute({ registration: account, actor })).user.id, isAdmin: false });
  }
  // Pictures: every user's avatar, every category's image, every guide's and every step's.
  const pictures = await DemoPictures.for(app);
  for (const [userId, name] of [[admin.id, DEMO_ACCOUNTS.admin.username], [editors[0]!.userId, DEMO_ACCOUNTS.alice.username], [editors[1]!.userId, DEMO_ACCOUNTS.bob.username]] as const) {
    await app.get(EditProfile).execute({ userId: userId as UserId, edit: { image: await pictures.of(userId, name) } });
  }
  await loadCategories(app, { userId: admin.id, isAdmin: true }, pictures);
  const guides = await loadGuides(app, { alice: editors[0]!, bob: editors[1]!, admin: { userId: admin.id, isAdmin: true } }, pictures);
  await loadTranslations(app, { admin: { userId: admin.id, isAdmin: true }, bob: editors[1]! }, guides);
  await loadDemoTeams(app, { admin: admin.id, alice: editors[0]!.userId, bob: editors[1]!.userId });
  // Loaded here, not by what imports this library for its migration (see demo-pictures.ts).
  const { loadCommunityDemo } = await import('@rc/community-http');
  await loadCommunityDemo(app, { admin: admin.id, alice: editors[0]!.userId, bob: editors[1]!.userId }, guides.map((g) => ({ id: g.id, title: g.state.title, isPublic: g.state.isPublic, stepIds: g.steps.map((s) => s.id) })));
  return { categories: CATEGORIES.length, guides: guides.length, images: pictures.uploaded };
}

/** Categories are CATEGORY pages of the catalog context: a tree four levels deep. */
const CATEGORIES: Array<[title: string, parent: string | null, description: string]> = [
  ['Electronics', null, 'Phones, computers, consoles and everything with a circuit board.'],
  ['Phone', 'Electronics', 'Smartphones and feature phones.'],
  ['iPhone', 'Phone', "Apple's smartphones."],
  ['iPhone 12', 'iPhone', 'The iPhone 12, released in October 2020. Model A2172.'],
  ['Computer', 'Electronics', 'Desktops and laptops.'],
  ['Mac Laptop', 'Computer', "Apple's laptops."],
  ['MacBook Pro 13" 2020', 'Mac Laptop', 'The 13-inch MacBook Pro with two Thunderbolt 3 ports.'],
  ['Game Console', 'Electronics', 'Home and handheld consoles.'],
  ['Nintendo Switch', 'Game Console', 'The hybrid console released in 2017.'],
  ['Appliance', null, 'Household appliances.'],
  ['Coffee Maker', 'Appliance', 'Drip, espresso and pod machines.'],
];

/** Category pages with markup and info rows on the leaves people look up most (every category gets a picture). */
const CATEGORY_PAGES: Record<string, { contents: string; info?: { name: string; value: string }[] }> = {
  'iPhone 12': {
    contents:
      "== Identification ==\nThe iPhone 12 has '''flat edges''' and a dual-lens camera. Model numbers: A2172, A2402, A2403, A2404.\n\n== Background ==\n* Released October 23, 2020\n* First iPhone with MagSafe\n\nSee [[Category:iPhone|all iPhones]] and [guide|2|the battery replacement].",
    info: [
      { name: 'Released', value: 'October 23, 2020' },
      { name: 'Model numbers', value: 'A2172, A2402, A2403, A2404' },
    ],
  },
  'Nintendo Switch': {
    contents: "The hybrid console: play docked or handheld.\n\n== Troubleshooting ==\n* Joy-Con drift: replace the joystick\n* Overheating: clean the fan",
    info: [{ name: 'Released', value: 'March 3, 2017' }],
  },
};

async function loadCategories(app: INestApplicationContext, admin: WikiEditor, pictures: DemoPictures): Promise<void> {
  for (const [title, parent, description] of CATEGORIES) {
    const page = CATEGORY_PAGES[title];
    const image = await pictures.of(admin.userId, title);
    await app.get(CreateWiki).execute({
      editor: admin,
      fields: { namespace: 'CATEGORY', title, description, parent, contents: page?.contents ?? '', image, info: page?.info ?? [] },
    });
  }
}

const line = (text: string, bullet = 'black', level = 0) => ({ text, bullet, level });

interface DemoGuide {
  readonly key: string;
  readonly by: 'alice' | 'bob';
  readonly fields: (ids: Record<string, number>) => GuideInput;
  readonly steps: StepInput[];
}

const DEMO_GUIDES: DemoGuide[] = [
  {
    key: 'opening',
    by: 'alice',
    fields: () => ({
      category: 'iPhone 12', type: 'technique', subject: 'Opening', title: 'iPhone 12 Opening Procedure', difficulty: 'Moderate',
      summary: 'How to safely separate the display assembly from the frame.', time_required_min: 900, time_required_max: 1800,
      introduction: "Use this procedure before any repair that needs the phone open. '''Power the phone off''' first.",
      flags: ['GUIDE_PREREQ_ONLY'], public: true,
      tools: [{ name: 'P2 Pentalobe Screwdriver', url: 'https://example.com/tools/p2' }, { name: 'Suction Handle' }, { name: 'iOpener', isoptional: true }],
    }),
    steps: [
      { title: 'Pentalobe screws', lines: [line('Power off the iPhone before you begin.', 'icon_caution'), line('Remove the two 6.7 mm pentalobe screws next to the Lightning port.'), line('Keep track of each screw: they look alike but are not.', 'icon_note', 1)] },
      { title: 'Heat the bottom edge', lines: [line("Apply a heated ''iOpener'' to the bottom edge for about a minute."), line('Heat softens the adhesive that holds the display.', 'black', 1)] },
      {
        title: 'Lift the screen',
        lines: [
          line('Apply a suction handle to the bottom edge of the screen.', 'red'),
          line('Pull up with firm, constant pressure to create a small gap.', 'orange'),
          line('Do not lift more than 10°: cables connect the display to the logic board.', 'icon_caution', 1),
          line("See [link|https://www.apple.com/support|the maker's support pages] for warranty notes.", 'black', 2),
        ],
      },
    ],
  },
  {
    key: 'battery',
    by: 'alice',
    fields: (ids) => ({
      category: 'iPhone 12', type: 'replacement', subject: 'Battery', title: 'iPhone 12 Battery Replacement', difficulty: 'Moderate',
      summary: 'Replace a worn-out battery to restore battery life.', time_required_min: 3600, time_required_max: 5400,
      introduction: '== Before you start ==\nDischarge the battery below 25 %. A charged lithium-ion battery can catch fire if punctured.\n\n* Work on a clean surface\n* Keep the screws sorted',
      conclusion: 'Follow these instructions in reverse order to reassemble your device.',
      prerequisites: [ids['opening']!], public: true,
      parts: [{ name: 'iPhone 12 Battery', type: 'Part Only', quantity: 1, url: 'https://example.com/parts/iphone-12-battery' }, { name: 'Battery adhesive strips', quantity: 2, notes: 'Use new strips.' }],
      tools: [{ name: 'Spudger' }, { name: 'Tweezers' }],
    }),
    steps: [
      { title: 'Disconnect the battery', lines: [line('Remove the four Y000 screws securing the battery connector bracket.'), line('Use the point of a spudger to pry the battery connector up.', 'blue'), line('Never use a metal tool on the battery.', 'icon_caution', 1)] },
      { title: 'Pull the adhesive strips', lines: [line('Slowly pull each adhesive tab away from the battery, toward the bottom of the iPhone.'), line('Keep the strip flat and pull at a low angle.', 'green', 1), line('If a strip breaks, retrieve it with tweezers.', 'light_blue', 2)] },
      { title: 'Remove the battery', lines: [line('Lift the battery out of the iPhone.'), line('Compare the new battery with the old one before installing.', 'icon_reminder')] },
    ],
  },
  {
    key: 'joycon',
    by: 'bob',
    fields: () => ({
      category: 'Nintendo Switch', type: 'replacement', subject: 'Joy-Con Joystick', title: 'Joy-Con Joystick Replacement', difficulty: 'Difficult',
      summary: 'Fix Joy-Con drift by replacing the analog stick.', time_required_min: 1200, time_required_max: 2700, public: true,
      parts: [{ name: 'Joy-Con Joystick', quantity: 1 }], tools: [{ name: 'Tri-point Y00 Screwdriver' }, { name: 'Phillips #00 Screwdriver' }],
    }),
    steps: [
      { lines: [line('Remove the four Y00 screws on the back of the Joy-Con.'), line('The screws are tiny: use a magnetic mat.', 'violet', 1)] },
      { lines: [line('Open the Joy-Con like a book, from the rail side.'), line('Disconnect the shoulder button ribbon cable.', 'yellow', 1)] },
    ],
  },
  {
    key: 'teardown',
    by: 'bob',
    fields: () => ({
      category: 'MacBook Pro 13" 2020', type: 'teardown', title: 'MacBook Pro 13" Two Thunderbolt Ports 2020 Teardown',
      summary: 'A look inside the 2020 MacBook Pro with two ports.', public: true, introduction: "What changed inside? Let's take it apart and find out.",
    }),
    steps: [
      { lines: [line('The lower case comes off after ten P5 pentalobe screws.'), line("Inside: a '''58.2 Wh''' battery and a single fan.", 'black', 1)] },
      { lines: [line('The trackpad cable runs under the battery, as in earlier models.')] },
    ],
  },
  {
    key: 'coffee',
    by: 'alice',
    fields: () => ({
      category: 'Coffee Maker', type: 'maintenance', subject: 'Descaling', title: 'Coffee Maker Descaling', difficulty: 'Very easy',
      summary: 'Remove mineral buildup to keep coffee hot and fast.', time_required_min: 1800, time_required_max: 1800, public: true,
    }),
    steps: [{ lines: [line('Fill the reservoir with equal parts white vinegar and water.'), line('Run half a brew cycle, wait 30 minutes, then finish it.'), line('Run two cycles of clean water.', 'green')] }],
  },
  {
    key: 'draft',
    by: 'bob',
    fields: () => ({ category: 'Nintendo Switch', type: 'repair', subject: 'Fan', title: 'Nintendo Switch Fan Replacement (draft)', difficulty: 'Difficult', summary: 'Work in progress.', flags: ['GUIDE_IN_PROGRESS'] }),
    steps: [{ lines: [line('Remove the back panel.')] }],
  },
];

/**
 * A second language: the Joy-Con guide (its texts and both steps) and the Nintendo Switch category
 * page in German (`?langid=de`), made from their current revisions.
 */
async function loadTranslations(app: INestApplicationContext, who: { admin: WikiEditor; bob: Editor }, guides: readonly Guide[]): Promise<void> {
  const joycon = guides.find((g) => g.state.title === 'Joy-Con Joystick Replacement')!;
  let translated = (await app.get(TranslateGuide).execute({
    editor: who.bob,
    guideId: joycon.id,
    langid: 'de',
    revisionid: joycon.state.revisionid,
    fields: { title: 'Joy-Con-Joystick austauschen', subject: 'Joy-Con-Joystick', summary: 'Joy-Con-Drift beheben: den Analogstick austauschen.' },
  }))!.guide;
  const steps: string[][] = [
    ['Entferne die vier Y00-Schrauben auf der Rückseite des Joy-Con.', 'Die Schrauben sind winzig: nimm eine Magnetmatte.'],
    ['Klappe den Joy-Con wie ein Buch von der Schienenseite her auf.', 'Trenne das Flachbandkabel der Schultertaste.'],
  ];
  for (const [i, step] of joycon.steps.entries()) {
    const lines = steps[i];
    if (!lines) continue;
    translated = (await app.get(TranslateStep).execute({ editor: who.bob, guideId: joycon.id, stepId: step.id, langid: 'de', revisionid: translated.step(step.id).revisionid, step: { lines } }))!.guide;
  }
  const page = await app.get(TranslateWiki).execute({
    editor: who.admin,
    namespace: 'CATEGORY',
    title: 'Nintendo Switch',
    langid: 'de',
    revisionid: null,
    fields: {
      display_title: 'Nintendo Switch',
      description: 'Die Hybridkonsole von Nintendo, erschienen im März 2017.',
      contents: 'Die Hybridkonsole: im Dock oder mobil spielen.\n\n== Fehlerbehebung ==\n* Joy-Con-Drift: den Joystick austauschen\n* Überhitzung: den Lüfter reinigen',
    },
  });
  if (!page) throw new Error('the Nintendo Switch page is not in English');
}

/** Demo guides: several types, a prerequisite, a private draft, a featured one, rich step lines, parts and tools. */
async function loadGuides(app: INestApplicationContext, who: { alice: Editor; bob: Editor; admin: Editor }, pictures: DemoPictures): Promise<Guide[]> {
  const ids: Record<string, number> = {};
  const guides: Record<string, Guide> = {};
  for (const demo of DEMO_GUIDES) {
    const author = who[demo.by];
    const fields = demo.fields(ids);
    const image = await pictures.of(author.userId, String(fields.title ?? demo.key));
    let guide = await app.get(CreateGuide).execute({ editor: author, fields: { ...fields, image } });
    for (const [i, step] of demo.steps.entries()) {
      const picture = await pictures.of(author.userId, `Step ${i + 1}: ${step.title ?? String(fields.subject ?? fields.title ?? demo.key)}`);
      guide = await app.get(AddStep).execute({ editor: author, guideId: guide.id, step: { ...step, media: { type: 'image', data: [picture] } } });
    }
    ids[demo.key] = guide.id;
    guides[demo.key] = guide;
  }
  const coffee = guides['coffee']!;
  await app.get(EditGuide).execute({ editor: who.admin, guideId: coffee.id, revisionid: coffee.state.revisionid, fields: { flags: ['GUIDE_STARRED'] } });
  await app.get(MarkGuide).execute({ viewer: who.bob, guideId: guides['battery']!.id, kind: 'favorite', on: true });
  await app.get(MarkGuide).execute({ viewer: who.bob, guideId: guides['opening']!.id, kind: 'completion', on: true });
  await app.get(MarkGuide).execute({ viewer: who.alice, guideId: guides['joycon']!.id, kind: 'completion', on: true });
  return Object.values(guides);
}
