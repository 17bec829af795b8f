import type { INestApplicationContext } from '@nestjs/common';
import { CommentTargets, PostComment, PostStory, type CommentId, type CommunityActor } from '@rc/community-domain';

/** A demo guide as the demo loader made it. */
export interface DemoGuideRef {
  readonly id: number;
  readonly title: string;
  readonly isPublic: boolean;
  readonly stepIds: readonly number[];
}

/**
 * Demo comments and stories, through the community's use cases: a thread with replies on a guide,
 * comments on steps, one on a wiki page and one on a story, a comment on the private draft (its
 * author's note), and two stories. Called by the demo loader once the guides and pages exist.
 */
export async function loadCommunityDemo(app: INestApplicationContext, users: { readonly admin: number; readonly alice: number; readonly bob: number }, guides: readonly DemoGuideRef[]): Promise<void> {
  const who = (userId: number, isAdmin = false): CommunityActor => ({ userId, isAdmin });
  const alice = who(users.alice);
  const bob = who(users.bob);
  const admin = who(users.admin, true);
  const post = app.get(PostComment);
  const comment = async (actor: CommunityActor, context: string, contextId: number, text: string, parentid?: CommentId) =>
    (await post.execute({ actor, context, contextId, fields: { text, ...(parentid ? { parentid } : {}) } })).id;
  const byTitle = (part: string) => guides.find((g) => g.title.includes(part));
  const battery = byTitle('Battery Replacement');
  const joycon = byTitle('Joy-Con');
  const draft = guides.find((g) => !g.isPublic);

  if (battery) {
    const question = await comment(bob, 'guide', battery.id, "Does this work for the iPhone 12 ''mini'' too?");
    await comment(alice, 'guide', battery.id, 'The steps are the same, but the mini uses a smaller battery: order the right part.', question);
    await comment(admin, 'guide', battery.id, 'See also [guide|' + battery.id + '|this guide] for the adhesive strips.', question);
    if (battery.stepIds[0]) await comment(bob, 'step', battery.stepIds[0], "My bracket had '''five''' screws, not four.");
    if (battery.stepIds[1]) await comment(alice, 'step', battery.stepIds[1], 'A little isopropyl alcohol under the battery loosens a broken strip.');
  }
  if (joycon?.stepIds[0]) {
    const tip = await comment(alice, 'step', joycon.stepIds[0], 'A magnetic mat saved me here.');
    await comment(bob, 'step', joycon.stepIds[0], 'Same! The Y00 screws are tiny.', tip);
  }
  if (draft) await comment(who(users.bob), 'guide', draft.id, 'Note to self: add photos of the fan connector.').catch(() => undefined);

  // The first category page the catalog has (the demo's tree starts at id 1).
  const targets = app.get(CommentTargets);
  for (let id = 1; id <= 20; id++) {
    if (await targets.resolve('wiki', id)) {
      await comment(bob, 'wiki', id, 'Is there a guide for the charging port?');
      break;
    }
  }

  const stories = app.get(PostStory);
  const first = await stories.execute({
    actor: alice,
    fields: {
      title: 'My iPhone 12 lasts a whole day again',
      intro: 'After two years the battery barely made it to lunch.',
      body: "I followed the battery guide step by step. The adhesive strips were the hardest part: '''pull slowly'''.",
      conclusion: 'Forty minutes, one new battery, and the phone is good for years.',
      guides: battery ? [battery.id] : [],
      products: ['IF315-036'],
      difficulty: 'Moderate',
      time_taken: 2400,
    },
  });
  await stories.execute({
    actor: bob,
    fields: { title: 'No more Joy-Con drift', intro: 'Mario kept running left.', body: 'A new joystick module fixed it.', conclusion: 'Cheaper than new controllers.', guides: joycon ? [joycon.id] : [], difficulty: 'Difficult' },
  });
  if (first.created) await comment(bob, 'story', first.story.id, 'Great write-up, thanks!');
}
