// Test support: Node module hooks that run the API's TypeScript sources in a child process the
// way Jest does (ts-jest in transpile mode): each file transpiled on its own with the repository's
// compiler options, decorator metadata included (which Nest's injection needs), workspace
// packages resolved to their sources (the `@rc/source` condition), `./x.js` imports to `./x.ts`.
import { readFile } from 'node:fs/promises';
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

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), { compilerOptions, fileName });
  return { format: 'module', source: outputText, shortCircuit: true };
}
