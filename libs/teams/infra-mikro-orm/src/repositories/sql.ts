/**
 * MikroORM expands an array parameter into a list of values, so integer arrays are passed as one
 * JSON text parameter and unpacked in SQL.
 */
export function intArray(values: readonly number[]): { sql: string; param: string } {
  return { sql: `ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)`, param: JSON.stringify(values) };
}

export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
