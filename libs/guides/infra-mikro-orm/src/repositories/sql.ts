/**
 * MikroORM expands an array parameter into a list of values, so integer arrays are passed as one
 * JSON text parameter and unpacked in SQL.
 */
export function intArray(values: readonly number[]): { sql: string; param: string } {
  return { sql: `ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)`, param: JSON.stringify(values) };
}

/**
 * Who else may edit guide `g` (a table alias), as two SQL expressions: its collaborators' user ids
 * and its teams' ids, each an `int[]` in increasing order.
 */
export function guideEditorsSql(g: string): { readonly collaboratorIds: string; readonly teamIds: string } {
  return {
    collaboratorIds: `ARRAY(SELECT c.user_id FROM guide_collaborators c WHERE c.guide_id = ${g}.id ORDER BY c.user_id)`,
    teamIds: `ARRAY(SELECT t.team_id FROM guide_teams t WHERE t.guide_id = ${g}.id ORDER BY t.team_id)`,
  };
}
