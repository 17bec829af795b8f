import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EnsureAdmin, isRole, ListApps, RegisterApp, RevokeApp, SetUserRole } from '@rc/identity-domain';
import { DomainError, RuleViolationError } from '@rc/shared-kernel';
import { AppModule } from '../app.module.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../database.js';
import { createLogger, NestPinoLogger } from '../logger.js';
import { migrate } from '../provisioning.js';
import { ArchiveBuilder, buildForParent, duration, LineProgress, TerminalProgress } from '@rc/archive-http';
import { GuideEventRelay } from '../events/guide-event-relay.js';
import { GuideBodyBuilder } from '@rc/guides-http';
import { ReputationQueries } from '@rc/reputation-domain';
import { MikroORM as PostgreSqlOrm } from '@mikro-orm/postgresql';
import { readOutbox } from '@rc/identity-infra-mikro-orm';

interface Command {
  readonly usage: string;
  readonly summary: string;
  run(ctx: INestApplicationContext, args: ParsedArgs, io: CliIo): Promise<void>;
}

interface ParsedArgs {
  readonly positional: string[];
  readonly flags: Record<string, string>;
}

export interface CliIo {
  readonly env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
  /** The next line of standard input (passwords). */
  readLine(prompt: string): Promise<string>;
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    summary: 'apply pending database migrations (the API also does this at start)',
    async run(ctx, _args, { out }) {
      const applied = await migrate(ctx);
      out(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
    },
  },
  'events:deliver': {
    usage: 'events:deliver',
    summary: 'deliver the pending events of the guides context to reputation now, then report the backlog',
    async run(ctx, _args, { out }) {
      const relay = ctx.get(GuideEventRelay);
      const delivered = await relay.drain();
      const { pending, failing } = await relay.backlog();
      out(`delivered ${delivered} event(s); ${pending} pending, ${failing} failing (retried later)`);
    },
  },
  'reputation:audit': {
    usage: 'reputation:audit',
    summary: "check every user's reputation total against the sum of their ledger entries",
    async run(ctx, _args, { out }) {
      const mismatches = await ctx.get(ReputationQueries).audit();
      if (!mismatches.length) out('every total matches its ledger');
      for (const m of mismatches) out(`user ${m.userId}: total ${m.total}, ledger ${m.ledger}`);
      if (mismatches.length) throw new RefusedError(`${mismatches.length} total(s) differ from the ledger`);
    },
  },
  'archive:build': {
    usage: 'archive:build',
    summary: 'build the offline oManual archive now (progress on standard error; the peak memory used at the end)',
    async run(ctx, _args, { out, err }) {
      const progress = process.stderr.isTTY ? new TerminalProgress(process.stderr) : new LineProgress(err);
      const builder = ctx.get(ArchiveBuilder);
      const { archive, guides, categories, mediaFiles, ms } = await (buildForParent(builder) ?? builder.build({ progress }));
      out(`built ${archive.name}: ${guides} guides, ${categories} categories, ${mediaFiles} media files, ${(archive.size / 1048576).toFixed(1)} MiB in ${duration(ms)}`);
      out(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB`);
    },
  },
  'guides:bodies': {
    usage: 'guides:bodies [--workers N]',
    summary: 'store the body of every public guide whose stored one is missing or outdated (the guide_bodies read model; reads fill it too), in N processes',
    async run(ctx, { flags }, { out, err, env }) {
      const workers = flags['workers'] === undefined ? 1 : positiveInt(flags['workers'], '--workers');
      const part = flags['part'] === undefined ? undefined : parsePart(flags['part']);
      const started = Date.now();
      if (workers > 1 && !part) {
        // Building is CPU work in this process: side by side, each takes the ids of one remainder.
        const counts = await Promise.all(Array.from({ length: workers }, (_, index) => guideBodiesWorker(index, workers, env, err)));
        out(`stored ${counts.reduce((a, b) => a + b, 0)} guide bodies in ${duration(Date.now() - started)} (${workers} processes)`);
        return;
      }
      let shown = 0;
      const progress = (built: number) => {
        if (built - shown < 10_000) return;
        shown = built;
        err(`guide bodies${part ? ` (part ${part.index + 1} of ${part.of})` : ''}: ${built} stored`);
      };
      const { built, ms } = await ctx.get(GuideBodyBuilder).build({ progress, part });
      out(`stored ${built} guide bodies in ${duration(ms)}`);
    },
  },
  'mail:outbox': {
    usage: 'mail:outbox [EMAIL] [--limit N]',
    summary: 'print the newest mails kept in the outbox (without SMTP_URL), of one recipient when given, newest first (default 5)',
    async run(ctx, { positional, flags }, { out }) {
      const limit = flags['limit'] === undefined ? 5 : Number(flags['limit']);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
      const mails = await readOutbox(ctx.get(PostgreSqlOrm).em.fork(), { to: positional[0], limit });
      if (!mails.length) out(positional[0] ? `no mail to ${positional[0]} in the outbox` : 'the outbox is empty');
      for (const mail of mails) {
        out(`--- ${mail.createdAt.toISOString()} to ${mail.to}: ${mail.subject}`);
        for (const line of mail.text.trimEnd().split('\n')) out(line);
      }
    },
  },
  'app-id:create': {
    usage: 'app-id:create [--id ID] [--name NAME]',
    summary: 'register an application id (a random 16-character one without --id)',
    async run(ctx, { flags }, { out }) {
      const app = await ctx.get(RegisterApp).execute({ appId: flags['id'], name: flags['name'] ?? '' });
      out(app.appId);
    },
  },
  'app-id:list': {
    usage: 'app-id:list',
    summary: 'list application ids',
    async run(ctx, _args, { out }) {
      const apps = await ctx.get(ListApps).execute();
      if (!apps.length) out('no app ids registered');
      for (const app of apps) {
        out(`${app.appId}\t${app.revokedAt ? `revoked ${app.revokedAt.toISOString()}` : 'active'}\t${app.createdAt.toISOString()}\t${app.name}`);
      }
    },
  },
  'app-id:revoke': {
    usage: 'app-id:revoke ID',
    summary: 'revoke an application id (login and registration with it stop working)',
    async run(ctx, { positional }, { out }) {
      const appId = required(positional[0], 'the app id');
      await ctx.get(RevokeApp).execute(appId);
      out(`revoked ${appId}`);
    },
  },
  'user:create-admin': {
    usage: 'user:create-admin EMAIL [--username NAME] [--password PASSWORD]',
    summary: 'create an Admin account, or make an existing one Admin with this password (password also from ADMIN_PASSWORD or standard input)',
    async run(ctx, { positional, flags }, { out, env, readLine }) {
      const email = required(positional[0], 'the email address');
      const password = flags['password'] ?? env['ADMIN_PASSWORD'] ?? (await readLine('password: '));
      const { user, created } = await ctx.get(EnsureAdmin).execute({ email, password, username: flags['username'] });
      out(`${created ? 'created' : 'updated'} admin ${user.email} (userid ${user.id})`);
    },
  },
  'user:set-role': {
    usage: 'user:set-role EMAIL User|Admin',
    summary: "set a user's role",
    async run(ctx, { positional }, { out }) {
      const email = required(positional[0], 'the email address');
      const role = positional[1];
      if (!isRole(role)) throw new UsageError('the role must be User or Admin');
      const user = await ctx.get(SetUserRole).execute({ email, role });
      out(`${user.email} is now ${user.role}`);
    },
  },
};

class UsageError extends Error {}
/** The command ran and found something wrong: exit code 1. */
class RefusedError extends Error {}

function required(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`${name} must be a whole number from 1 to 64`);
  return n;
}

/** `--part K/N` (K from 1): the part a worker of `guides:bodies --workers N` takes. */
function parsePart(value: string): { index: number; of: number } {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(value);
  const [k, n] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || n < 1 || n > 64 || k < 1 || k > n) throw new UsageError('--part must be K/N with 1 <= K <= N <= 64');
  return { index: k - 1, of: n };
}

/** One worker of `guides:bodies --workers N`: this CLI again, on part `index + 1` of `of`; the number it stored. */
async function guideBodiesWorker(index: number, of: number, env: CliIo['env'], err: (line: string) => void): Promise<number> {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, cli, 'guides:bodies', '--part', `${index + 1}/${of}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => String(chunk).trim().split('\n').forEach((line) => err(line)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stored = /stored ([0-9]+) guide bodies/.exec(output);
  if (code !== 0 || !stored) throw new RefusedError(`guides:bodies part ${index + 1}/${of} failed (exit ${code}): ${output.trim()}`);
  return Number(stored[1]);
}

function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
    } else positional.push(arg);
  }
  return { positional, flags };
}

function help(out: (line: string) => void): void {
  out('Usage: npm run cli -- <command> [arguments]\n\nCommands:');
  for (const command of Object.values(COMMANDS)) out(`  ${command.usage.padEnd(58)} ${command.summary}`);
  out('\nThe CLI reads the same configuration as the API (DATABASE_URL, DATA_DIR, ...).');
}

/** Runs one command; returns the exit code (0 done, 1 refused, 2 usage or configuration error). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await execute(argv, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof RefusedError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof RuleViolationError) {
      io.err(error.violations.map((v) => `${v.field}: ${v.message}`).join('\n'));
      return 1;
    }
    if (error instanceof DomainError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

async function execute(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(io.out);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`unknown command '${name}'`);
    help(io.err);
    return 2;
  }
  const args = parseArgs(rest);
  const config = { ...loadConfig(io.env), demoData: false };
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config, logger);
  let ctx: INestApplicationContext | null = null;
  try {
    ctx = await NestFactory.createApplicationContext(AppModule.forRoot({ config, logger, databaseUrl: database.url }), {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    if (name !== 'migrate') await migrate(ctx);
    const orm = ctx.get(MikroORM);
    await RequestContext.create(orm.em, () => command.run(ctx!, args, io));
    return 0;
  } finally {
    await ctx?.close();
    await database.stop();
  }
}
