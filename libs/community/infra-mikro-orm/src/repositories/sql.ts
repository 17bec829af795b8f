/**
 * MikroORM expands an array parameter into a list of values, so arrays are passed as one JSON text
 * parameter and unpacked in SQL.
 */
export function intArray(values: readonly number[]): { sql: string; param: string } {
  return { sql: `ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)`, param: JSON.stringify(values) };
}

export function textArray(values: readonly string[]): { sql: string; param: string } {
  return { sql: `ARRAY(SELECT jsonb_array_elements_text(?::jsonb))`, param: JSON.stringify(values) };
}

export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
export const toDateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));
