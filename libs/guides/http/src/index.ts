// The guides context's HTTP adapter: guides, steps, marks and tags, the guide reader and
// presenter, the anonymous bodies' cache, read model and fast path, and the oManual guide document.
export * from './guides.api-module.js';
export * from './guide-reader.js';
export * from './guide.presenter.js';
export * from './guide-fast-path.js';
export * from './guide-versions.js';
export * from './guide-version-source.js';
export * from './guide-body-builder.js';
export * from './public-guide-bodies.js';
export * from './omanual-guide.mapper.js';
export * from './dto/guide.response.dto.js';
export * from './dto/guide-changes.response.dto.js';
export * from './guide-team-bodies.js';
export * from './guide-diff.js';
export * from './guide-views.js';
