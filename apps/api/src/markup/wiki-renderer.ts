import type { WikiRenderer } from '../guides/guide.presenter.js';

// STAND-IN until the markup renderer lands: escapes everything.
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const wikiRenderer: WikiRenderer = { block: (raw) => (raw ? `<p>${escape(raw)}</p>` : ''), inline: escape };
