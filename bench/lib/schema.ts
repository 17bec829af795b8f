import type pg from 'pg';
import { CopyWriter } from './copy.js';

export interface Column {
  readonly name: string;
  /** `int4`, `text`, `_int4` (arrays start with `_`), … */
  readonly type: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly generated: boolean;
}

export type Schema = Map<string, Column[]>;

/** Every column of every table of the public schema, as the migrations left them. */
export async function readSchema(client: pg.ClientBase): Promise<Schema> {
  const { rows } = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null; is_generated: string; is_identity: string }>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default, is_generated, is_identity
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const schema: Schema = new Map();
  for (const row of rows) {
    const columns = schema.get(row.table_name) ?? [];
    columns.push({
      name: row.column_name,
      type: row.udt_name,
      nullable: row.is_nullable === 'YES',
      hasDefault: row.column_default !== null || row.is_identity === 'YES',
      generated: row.is_generated === 'ALWAYS',
    });
    schema.set(row.table_name, columns);
  }
  return schema;
}

/** A value of the column's type for a NOT NULL column the generator does not know (added by a later migration). */
function neutralValue(column: Column): string {
  if (column.type.startsWith('_')) return '{}';
  switch (column.type) {
    case 'int2':
    case 'int4':
    case 'int8':
    case 'numeric':
    case 'float4':
    case 'float8':
      return '0';
    case 'bool':
      return 'f';
    case 'json':
    case 'jsonb':
      return '[]';
    case 'timestamptz':
    case 'timestamp':
    case 'date':
      return '2026-11-01T00:00:00.000Z';
    case 'text':
    case 'varchar':
    case 'bpchar':
      return '';
    default:
      throw new Error(`the bench generator cannot fill the NOT NULL column ${column.name} of type ${column.type}`);
  }
}

/**
 * A COPY into a table of the real schema: rows are given in the generator's column order; columns
 * the table no longer has are dropped (silently for names marked optional with `?`), and NOT NULL columns the generator does not know (added by
 * a migration since) get a neutral value of their type, with a warning.
 */
export class TableLoader {
  private readonly writer: CopyWriter;
  private readonly pickers: ((row: readonly string[]) => string)[];

  constructor(client: pg.ClientBase, schema: Schema, table: string, columns: readonly string[], warn: (message: string) => void) {
    const existing = schema.get(table);
    if (!existing) throw new Error(`table ${table} does not exist: were the migrations applied?`);
    const names = new Set(existing.map((c) => c.name));
    const used: string[] = [];
    this.pickers = [];
    // A name starting with `?` is a column that only some versions of the schema have.
    const given = columns.map((c) => c.replace(/^\?/, ''));
    given.forEach((name, index) => {
      if (names.has(name)) {
        used.push(name);
        this.pickers.push((row) => row[index]!);
      } else if (!columns[index]!.startsWith('?')) warn(`${table}.${name} no longer exists: not loaded`);
    });
    for (const column of existing) {
      if (given.includes(column.name) || column.nullable || column.hasDefault || column.generated) continue;
      const value = neutralValue(column);
      warn(`${table}.${column.name} (${column.type}, NOT NULL) is unknown to the generator: filled with '${value}'`);
      used.push(column.name);
      this.pickers.push(() => value);
    }
    this.writer = new CopyWriter(client, table, used);
  }

  row(values: readonly string[]): Promise<void> {
    return this.writer.row(this.pickers.map((pick) => pick(values)));
  }

  end(): Promise<number> {
    return this.writer.end();
  }
}

export interface SavedIndex {
  readonly name: string;
  readonly table: string;
  readonly definition: string;
}

/** The secondary indexes of these tables (not those behind a primary key or unique constraint). */
export async function secondaryIndexes(client: pg.ClientBase, tables: readonly string[]): Promise<SavedIndex[]> {
  const { rows } = await client.query<{ name: string; table: string; definition: string }>(
    `SELECT ic.relname AS name, c.relname AS "table", pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY c.relname, ic.relname`,
    [tables],
  );
  return rows;
}
