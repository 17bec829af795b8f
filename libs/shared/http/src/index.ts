// The HTTP kernel every context's HTTP adapter uses: route needs and the guards' decorators,
// parameter parsing, JSON responses, the error envelope and the filter's table, body validation,
// the middleware around the routes, XML negotiation and writing, oManual paths, wiki markup
// rendering, and the Nest wiring helpers.
export * from './api-exception.filter.js';
export * from './api-express-adapter.js';
export * from './conditional.js';
export * from './conflict-bodies.js';
export * from './error-response.dto.js';
export * from './json-body.js';
export * from './middleware.js';
export * from './params.js';
export * from './protocol-errors.js';
export * from './respond.js';
export * from './route-needs.js';
export * from './route-table.js';
export * from './trust-proxy.js';
export * from './shared-objects.dto.js';
export * from './validation.js';
export * from './wiring.js';
export * from './xml/xml-writer.js';
export * from './xml/xml-response.js';
export * from './xml/omanual-paths.js';
export * from './xml/omanual-common.js';
export * from './markup/render.js';
export * from './markup/html-sanitizer.js';
export * from './markup/wiki-renderer.js';
export * from './text-diff.js';
export * from './change-note.js';
export * from './view-flushing.js';
export * from './stamped-bodies.js';
export * from './hot-path.js';
export * from './view-windows.js';
export * from './cache-budget.js';
