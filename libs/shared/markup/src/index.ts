export { renderWiki, renderInline, toPlainText } from './render.js';
export type { MarkupOptions } from './options.js';
export { IMAGE_SIZES, IMAGE_ALIGNS, type ImageSize, type ImageAlign } from './ast.js';
export { escapeHtml } from './escape.js';
export { safeUrl, safeAbsoluteUrl } from './urls.js';
