/** Whether a live wiki page has this id (`?`): one row or none. */
export const LIVE_WIKI_PAGE_SQL = 'SELECT 1 FROM wiki_pages WHERE id = ? AND deleted_at IS NULL';
