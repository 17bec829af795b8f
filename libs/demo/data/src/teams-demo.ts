import type { INestApplicationContext } from '@nestjs/common';
import { CreateTeam, JoinOrAddMember, type TeamActor } from '@rc/teams-domain';

/** The demo teams the README names: one that needs a join code, one anyone may join. */
export const DEMO_TEAMS = {
  guild: { name: 'Fixers Guild', description: 'Phone and console repairers who meet on Saturdays.', joinCode: 'solder-2026' },
  cafe: { name: 'Open Repair Café', description: 'Bring a broken appliance, leave with a working one. Anyone may join.' },
} as const;

/**
 * Demo teams, made through the use cases: Alice owns the Fixers Guild (join code `solder-2026`),
 * which Bob joined with the code and to which she added the admin; Bob owns the Open Repair Café,
 * which has no code and which Alice joined.
 */
export async function loadDemoTeams(app: INestApplicationContext, users: { admin: number; alice: number; bob: number }): Promise<void> {
  const admin: TeamActor = { userId: users.admin, isAdmin: true };
  const alice: TeamActor = { userId: users.alice, isAdmin: false };
  const bob: TeamActor = { userId: users.bob, isAdmin: false };
  const create = app.get(CreateTeam);
  const join = app.get(JoinOrAddMember);

  const { guild, cafe } = DEMO_TEAMS;
  const fixers = await create.execute({ actor: alice, fields: { name: guild.name, description: guild.description, join_code: guild.joinCode } });
  await join.execute({ actor: bob, teamId: fixers.id, userId: bob.userId, joinCode: guild.joinCode });
  await join.execute({ actor: alice, teamId: fixers.id, userId: admin.userId });

  const repairCafe = await create.execute({ actor: bob, fields: { name: cafe.name, description: cafe.description } });
  await join.execute({ actor: alice, teamId: repairCafe.id, userId: alice.userId });
}
