// Test support: Node module hooks that run the API's TypeScript sources in a child process the
// way Jest does (ts-jest in transpile mode): each file transpiled on its own with the repository's
// compiler options, decorator metadata included (which Nest's injection needs), workspace
// packages resolved to their sources (the `@rc/source` condition), `./x.js` imports to `./x.ts`.
// Each output is kept in a cache folder under the system's temporary one, by a digest of the
// source, its path and the compiler's version and options: a child process started again (the
// archive build's, say) transpiles only what changed, and loads the compiler only then.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const base = new URL('../../../../../tsconfig.base.json', import.meta.url);
const { config } = ts.readConfigFile(fileURLToPath(base), ts.sys.readFile);
const compilerOptions = {
  ...ts.convertCompilerOptionsFromJson(config.compilerOptions, fileURLToPath(new URL('.', base))).options,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  sourceMap: false,
  inlineSourceMap: true,
  declaration: false,
  declarationMap: false,
  composite: false,
  incremental: false,
};

export async function resolve(specifier, context, next) {
  const conditions = [...new Set([...(context.conditions ?? []), '@rc/source'])];
  try {
    return await next(specifier, { ...context, conditions });
  } catch (error) {
    if (/^\.{1,2}\/.*\.js$/.test(specifier) && context.parentURL?.endsWith('.ts')) {
      return next(specifier.replace(/\.js$/, '.ts'), { ...context, conditions });
    }
    throw error;
  }
}

const cacheDir = join(tmpdir(), 'rc-typescript-hooks');
const cacheKey = JSON.stringify([ts.version, compilerOptions]);

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const text = await readFile(fileName, 'utf8');
  const cached = join(cacheDir, `${createHash('sha256').update(cacheKey).update('\0').update(fileName).update('\0').update(text).digest('hex')}.js`);
  try {
    return { format: 'module', source: await readFile(cached, 'utf8'), shortCircuit: true };
  } catch {
    // Not transpiled yet.
  }
  const { outputText } = ts.transpileModule(text, { compilerOptions, fileName });
  await mkdir(cacheDir, { recursive: true });
  const temporary = `${cached}.${process.pid}.tmp`;
  await writeFile(temporary, outputText);
  await rename(temporary, cached);
  return { format: 'module', source: outputText, shortCircuit: true };
}
