import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const SPECIAL = /[\\\n\r\t]/;

/** A value in PostgreSQL's COPY text format (`\N` is NULL). */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return SPECIAL.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!) : value;
}

export const NULL = '\\N';

/** `{1,2,3}`: an integer[] literal. */
export function intArrayLiteral(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}

/** `{"A","B"}`: a text[] literal (values are quoted and escaped for the array syntax, then for COPY). */
export function textArrayLiteral(values: readonly string[]): string {
  return copyText(`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`);
}

export function json(value: unknown): string {
  return copyText(JSON.stringify(value));
}

export function timestamp(date: Date | null): string {
  return date ? date.toISOString() : NULL;
}

/**
 * One `COPY table (columns) FROM STDIN` on its own connection, fed row by row: rows are buffered
 * into chunks and written with backpressure, so generation never runs far ahead of PostgreSQL.
 */
export class CopyWriter {
  private chunk: string[] = [];
  private size = 0;
  private readonly stream: NodeJS.WritableStream;
  private readonly done: Promise<void>;
  rows = 0;

  constructor(
    client: pg.ClientBase,
    readonly table: string,
    readonly columns: readonly string[],
  ) {
    this.stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    this.done = new Promise<void>((resolve, reject) => {
      this.stream.on('finish', () => resolve());
      this.stream.on('error', (error: Error) => reject(new Error(`COPY ${table}: ${error.message}`)));
    });
    // Keep an early failure from being an unhandled rejection; it is reported by end().
    this.done.catch(() => undefined);
  }

  /** Adds a row of values already in COPY text form (see `copyText`); resolves when there is room for more. */
  async row(values: readonly string[]): Promise<void> {
    const line = values.join('\t') + '\n';
    this.chunk.push(line);
    this.size += line.length;
    this.rows++;
    if (this.size >= 256 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.chunk.length) return;
    const data = this.chunk.join('');
    this.chunk = [];
    this.size = 0;
    if (!this.stream.write(data)) await Promise.race([once(this.stream, 'drain'), this.done]);
  }

  async end(): Promise<number> {
    await this.flush();
    this.stream.end();
    await this.done;
    return this.rows;
  }
}
