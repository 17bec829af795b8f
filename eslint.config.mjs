import { builtinModules } from 'node:module';
import nx from '@nx/eslint-plugin';

const contexts = ['identity', 'guides', 'catalog', 'teams', 'reputation', 'media', 'community', 'webhooks'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', 'coverage', 'reports', '.nx', 'tmp'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Aggregate SQL queries always return a row; `row!` says so where the driver types cannot.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Project sources (not the Jest/ESLint configuration files around them).
    files: ['**/src/**/*.ts', '**/src/**/*.mjs', '**/test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // No '*' constraint: an untagged project fails the rule.
          depConstraints: [
            // Layer axis.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:http', 'type:domain', 'type:infra', 'type:contracts'] },
            // A context's HTTP adapter (and the shared HTTP kernel): its own context's domain, infra and
            // contracts, the kernel, other contexts' published contracts; never another context's
            // http, domain or infra (the scope axis below says which context).
            { sourceTag: 'type:http', onlyDependOnLibsWithTags: ['type:http', 'type:domain', 'type:infra', 'type:contracts'] },
            {
              sourceTag: 'type:infra',
              onlyDependOnLibsWithTags: ['type:domain', 'type:infra', 'type:contracts'],
              bannedExternalImports: ['@nestjs/swagger', 'class-validator', 'class-transformer', 'express'],
            },
            // Domain code is plain TypeScript: no Nest, no MikroORM, no HTTP, no Node built-ins.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'], allowedExternalImports: [] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'], allowedExternalImports: [] },
            // Context axis: a context sees itself, the shared kernel/infra and published contracts only.
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            ...contexts.map((ctx) => ({
              sourceTag: `scope:${ctx}`,
              onlyDependOnLibsWithTags: [`scope:${ctx}`, 'scope:shared', 'type:contracts'],
            })),
            // The offline archive is a cross-context feature, not a context: it builds its documents with
            // the guides' and the catalog's presenters and mappers. Nothing but the app imports it.
            { sourceTag: 'scope:archive', onlyDependOnLibsWithTags: ['scope:archive', 'scope:guides', 'scope:catalog', 'scope:shared', 'type:contracts'] },
            // The demo content goes through every context's use cases (and uploads pictures through the media's). Nothing but the app imports it.
            { sourceTag: 'scope:demo', onlyDependOnLibsWithTags: ['scope:demo', 'scope:shared', 'type:contracts', ...contexts.map((c) => `scope:${c}`)] },
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:archive', 'scope:demo', ...contexts.map((c) => `scope:${c}`)] },
          ],
        },
      ],
    },
  },
  {
    // The Nx rule does not see Node built-ins: domain code is plain TypeScript, so ban them too.
    files: ['libs/*/domain/src/**/*.ts', 'libs/shared/kernel/src/**/*.ts', 'libs/shared/markup/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'Domain code may not use Node built-ins: take a port instead.' })),
          patterns: [{ regex: '^node:', message: 'Domain code may not use Node built-ins: take a port instead.' }],
        },
      ],
    },
  },
];
