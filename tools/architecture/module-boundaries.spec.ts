import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The architecture rules are lint rules; this proves each one by linting a deliberate violation
 * (given on standard input as if it were a file of that project) and expecting ESLint to refuse it.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = fileURLToPath(new URL('../../node_modules/eslint/bin/eslint.js', import.meta.url));
const nx = fileURLToPath(new URL('../../node_modules/.bin/nx', import.meta.url));

function run(args: string[], input = ''): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit ?? 1, output }));
    child.stdin.end(input);
  });
}

const lint = (file: string, code: string) => run([eslint, '--stdin', '--stdin-filename', file, '--format', 'stylish'], code);

// The Nx rule reads the cached project graph and silently skips itself when there is none (a
// fresh clone, CI): compute it first, as `npm run lint` does.
beforeAll(async () => {
  const graph = await run([nx, 'show', 'projects']);
  if (graph.code !== 0) throw new Error(`nx show projects failed:\n${graph.output}`);
});

// Probes that would also close a dependency cycle may be refused for the cycle first: either
// message is a rejection by the rule. Each tag rule also has a probe with no cycle, so that the
// tag check itself is proven.
const violations: Array<[string, string, string, RegExp]> = [
  ['domain imports an ORM', 'libs/identity/domain/src/probe.ts', "import { MikroORM } from '@mikro-orm/core';", /type:domain" is not allowed to import "@mikro-orm\/core"/],
  ['domain imports Nest', 'libs/identity/domain/src/probe.ts', "import { Injectable } from '@nestjs/common';", /type:domain" is not allowed to import "@nestjs\/common"/],
  ['domain imports a Node built-in', 'libs/identity/domain/src/probe.ts', "import { createHash } from 'node:crypto';", /Domain code may not use Node built-ins/],
  ['kernel imports a bare Node built-in', 'libs/shared/kernel/src/probe.ts', "import { readFile } from 'fs';", /Domain code may not use Node built-ins/],
  ['the markup renderer imports a Node built-in', 'libs/shared/markup/src/probe.ts', "import { readFile } from 'node:fs';", /Domain code may not use Node built-ins/],
  ['the markup renderer imports an HTML library', 'libs/shared/markup/src/probe.ts', "import sanitize from 'sanitize-html';", /type:domain" is not allowed to import "sanitize-html"/],
  ['guides infra imports the catalog (another context)', 'libs/guides/infra-mikro-orm/src/probe.ts', "import { catalogSchemas } from '@rc/catalog-infra-mikro-orm';", /scope:guides" can only depend on libs tagged with "scope:guides", "scope:shared", "type:contracts"/],
  ['domain imports an infra lib', 'libs/identity/domain/src/probe.ts', "import { ormConfig } from '@rc/shared-infra-mikro-orm';", /type:domain" can only depend on libs tagged with "type:domain", "type:contracts"/],
  ['domain imports its own infra (a cycle too)', 'libs/identity/domain/src/probe.ts', "import { MikroOrmUserRepository } from '@rc/identity-infra-mikro-orm';", /type:domain" can only depend on libs tagged|Circular dependency between "@rc\/identity-domain" and "@rc\/identity-infra-mikro-orm"/],
  ['shared infra imports a context', 'libs/shared/infra-mikro-orm/src/probe.ts', "import { User } from '@rc/identity-domain';", /scope:shared" can only depend on libs tagged with "scope:shared"/],
  ['shared kernel imports a context (a cycle too)', 'libs/shared/kernel/src/probe.ts', "import { User } from '@rc/identity-domain';", /scope:shared" can only depend on libs tagged|Circular dependency between "@rc\/shared-kernel" and "@rc\/identity-domain"/],
  ['infra imports HTTP concerns', 'libs/identity/infra-mikro-orm/src/probe.ts', "import { ApiProperty } from '@nestjs/swagger';", /type:infra" is not allowed to import "@nestjs\/swagger"/],
  ['infra imports validation decorators', 'libs/identity/infra-mikro-orm/src/probe.ts', "import { IsString } from 'class-validator';", /type:infra" is not allowed to import "class-validator"/],
  ['reputation reads the guides domain (only its published events are allowed)', 'libs/reputation/domain/src/probe.ts', "import { Guide } from '@rc/guides-domain';", /scope:reputation" can only depend on libs tagged with "scope:reputation", "scope:shared", "type:contracts"/],
  ['reputation infra imports the identity infra', 'libs/reputation/infra-mikro-orm/src/probe.ts', "import { identitySchemas } from '@rc/identity-infra-mikro-orm';", /scope:reputation" can only depend on libs tagged/],
  ['teams imports reputation', 'libs/teams/domain/src/probe.ts', "import { POINTS } from '@rc/reputation-domain';", /scope:teams" can only depend on libs tagged with "scope:teams", "scope:shared", "type:contracts"/],
  ['the media domain imports the image codec', 'libs/media/domain/src/probe.ts', "import sharp from 'sharp';", /type:domain" is not allowed to import "sharp"/],
  ['media imports teams', 'libs/media/infra-mikro-orm/src/probe.ts', "import { Team } from '@rc/teams-domain';", /scope:media" can only depend on libs tagged with "scope:media", "scope:shared", "type:contracts"/],
  ['community reads guides through their domain', 'libs/community/http/src/probe.ts', "import { GuideQueries } from '@rc/guides-domain';", /scope:community" can only depend on libs tagged with "scope:community", "scope:shared", "type:contracts"/],
  ['the community domain imports the ORM', 'libs/community/domain/src/probe.ts', "import { EntitySchema } from '@mikro-orm/core';", /type:domain" is not allowed to import "@mikro-orm\/core"/],
  ['shared jobs imports a context', 'libs/shared/jobs/src/probe.ts', "import { Image } from '@rc/media-domain';", /scope:shared" can only depend on libs tagged with "scope:shared"/],
  ['guides publish to the webhooks context directly (they publish through the kernel\'s IntegrationEvents port)', 'libs/guides/domain/src/probe.ts', "import { Subscription } from '@rc/webhooks-domain';", /scope:guides" can only depend on libs tagged with "scope:guides", "scope:shared", "type:contracts"/],
  ['the webhooks domain signs with a Node built-in', 'libs/webhooks/domain/src/probe.ts', "import { createHmac } from 'node:crypto';", /Domain code may not use Node built-ins/],
  // Each context's HTTP adapter sees its own context, the HTTP kernel and published contracts only.
  ['guides/http imports catalog/http (another context\'s HTTP adapter)', 'libs/guides/http/src/probe.ts', "import { CatalogApiModule } from '@rc/catalog-http';", /scope:guides" can only depend on libs tagged with "scope:guides", "scope:shared", "type:contracts"/],
  ['guides/http imports catalog/domain', 'libs/guides/http/src/probe.ts', "import { ViewWiki } from '@rc/catalog-domain';", /scope:guides" can only depend on libs tagged with "scope:guides", "scope:shared", "type:contracts"/],
  ['guides/http imports catalog/infra-mikro-orm', 'libs/guides/http/src/probe.ts', "import { catalogSchemas } from '@rc/catalog-infra-mikro-orm';", /scope:guides" can only depend on libs tagged with "scope:guides", "scope:shared", "type:contracts"/],
  ['teams/http imports identity/http (users come through identity\'s contracts)', 'libs/teams/http/src/probe.ts', "import { IdentityApiModule } from '@rc/identity-http';", /scope:teams" can only depend on libs tagged with "scope:teams", "scope:shared", "type:contracts"/],
  ['reputation/http imports identity/domain', 'libs/reputation/http/src/probe.ts', "import { GetUser } from '@rc/identity-domain';", /scope:reputation" can only depend on libs tagged with "scope:reputation", "scope:shared", "type:contracts"/],
  ['a context\'s HTTP adapter imports the archive (a cycle too)', 'libs/catalog/http/src/probe.ts', "import { ArchiveModule } from '@rc/archive-http';", /scope:catalog" can only depend on libs tagged|Circular dependency between "@rc\/catalog-http" and "@rc\/archive-http"/],
  ['the HTTP kernel imports a context', 'libs/shared/http/src/probe.ts', "import { UserSummaries } from '@rc/identity-contracts';", /scope:shared" can only depend on libs tagged with "scope:shared"/],
  ['infra imports an HTTP adapter (a cycle too)', 'libs/teams/infra-mikro-orm/src/probe.ts', "import { TeamReader } from '@rc/teams-http';", /type:infra" can only depend on libs tagged|Circular dependency between "@rc\/teams-infra-mikro-orm" and "@rc\/teams-http"/],
  ['domain imports the HTTP kernel', 'libs/teams/domain/src/probe.ts', "import { Endpoint } from '@rc/shared-http';", /type:domain" can only depend on libs tagged with "type:domain", "type:contracts"/],
  ['contracts import the HTTP kernel', 'libs/identity/contracts/src/probe.ts', "import { Endpoint } from '@rc/shared-http';", /type:contracts" can only depend on libs tagged with "type:contracts"/],
  ['a project reached by a relative path', 'libs/identity/domain/src/probe.ts', "import { identitySchemas } from '../../infra-mikro-orm/src/index.js';", /must begin with a npm scope|relative or absolute path/],
];

describe('module boundaries (ESLint)', () => {
  it.each(violations)('rejects: %s', async (_name, file, importLine, message) => {
    const result = await lint(file, `${importLine}\nexport const probe = 1;\n`);
    expect(result.output).not.toMatch(/rule will be skipped/);
    expect(result.output).toMatch(message);
    expect(result.output).toMatch(/@nx\/enforce-module-boundaries|no-restricted-imports/);
    expect(result.code).toBe(1);
  });

  it.each([
    ['the app uses a domain and its infra', 'apps/api/src/probe.ts', "import { User } from '@rc/identity-domain';\nimport { identitySchemas } from '@rc/identity-infra-mikro-orm';\nexport const probe = [User, identitySchemas];"],
    [
      'infra uses its domain, the ORM and Node',
      'libs/identity/infra-mikro-orm/src/probe.ts',
      "import { User } from '@rc/identity-domain';\nimport { EntitySchema } from '@mikro-orm/core';\nimport { createHash } from 'node:crypto';\nexport const probe = [User, EntitySchema, createHash];",
    ],
    ['domain uses the shared kernel', 'libs/identity/domain/src/probe.ts', "import { Clock } from '@rc/shared-kernel';\nexport const probe = Clock;"],
    ['a context publishes integration events through the kernel', 'libs/catalog/domain/src/probe.ts', "import { IntegrationEvents } from '@rc/shared-kernel';\nexport const probe = IntegrationEvents;"],
    ['media infra uses the shared job queue', 'libs/media/infra-mikro-orm/src/probe.ts', "import { PgBossJobQueue } from '@rc/shared-jobs';\nimport { Image } from '@rc/media-domain';\nexport const probe = [PgBossJobQueue, Image];"],
    ['reputation uses the events the guides context publishes', 'libs/reputation/domain/src/probe.ts', "import type { GuideEvent } from '@rc/guides-contracts';\nexport type Probe = GuideEvent;"],
    [
      'an HTTP adapter uses its own context, the HTTP kernel and another context\'s contracts',
      'libs/guides/http/src/probe.ts',
      "import { GuideQueries } from '@rc/guides-domain';\nimport { guidesSchemas } from '@rc/guides-infra-mikro-orm';\nimport { Endpoint } from '@rc/shared-http';\nimport { UserSummaries } from '@rc/identity-contracts';\nexport const probe = [GuideQueries, guidesSchemas, Endpoint, UserSummaries];",
    ],
    ['guide bodies read comments through the community\'s contracts', 'libs/guides/http/src/probe.ts', "import { GuideDiscussions } from '@rc/community-contracts';\nexport const probe = GuideDiscussions;"],
    ['the app imports each context\'s HTTP module', 'apps/api/src/probe.ts', "import { GuidesApiModule } from '@rc/guides-http';\nimport { TeamsApiModule } from '@rc/teams-http';\nimport { ArchiveModule } from '@rc/archive-http';\nexport const probe = [GuidesApiModule, TeamsApiModule, ArchiveModule];"],
    ['the archive uses the guides\' and the catalog\'s HTTP adapters', 'libs/archive/http/src/probe.ts', "import { guideDocument } from '@rc/guides-http';\nimport { WikiReader } from '@rc/catalog-http';\nexport const probe = [guideDocument, WikiReader];"],
  ])('allows: %s', async (_name, file, code) => {
    const result = await lint(file, `${code}\n`);
    expect(result.output).not.toMatch(/rule will be skipped/);
    expect(result.output).not.toMatch(/enforce-module-boundaries|no-restricted-imports/);
    expect(result.code).toBe(0);
  });
});
