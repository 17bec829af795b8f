import 'reflect-metadata';
import { runCli } from './cli/run-cli.js';

/** `npm run cli -- <command>`: the operator's entry point (see `npm run cli -- help`). */
async function readLine(prompt: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(prompt);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (String(chunk).includes('\n')) break;
  }
  return Buffer.concat(chunks).toString('utf8').split('\n')[0]!.replace(/\r$/, '');
}

runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readLine,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
