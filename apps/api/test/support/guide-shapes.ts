// The key sets of the guide bodies the original API returns, shared by the guide end-to-end tests.

/** GuideSummary (reference §3.4): list items. */
export const SUMMARY_KEYS = [
  'category',
  'dataType',
  'difficulty',
  'flags',
  'guideid',
  'image',
  'locale',
  'modified_date',
  'prereq_modified_date',
  'public',
  'revisionid',
  'subject',
  'summary',
  'time_required_max',
  'title',
  'type',
  'url',
  'userid',
  'username',
];

/** The 42 observed keys of a full guide (reference §3.5). */
export const ORIGINAL_GUIDE_KEYS = [
  'author',
  'available_langids',
  'can_edit',
  'category',
  'comments',
  'completed',
  'conclusion_raw',
  'conclusion_rendered',
  'created_date',
  'difficulty',
  'documents',
  'favorited',
  'featured_document_embed_url',
  'featured_document_thumbnail_url',
  'featured_documentid',
  'flags',
  'guideid',
  'image',
  'intro_video',
  'intro_video_url',
  'introduction_raw',
  'introduction_rendered',
  'langid',
  'locale',
  'modified_date',
  'parts',
  'patrol_threshold',
  'prereq_modified_date',
  'prerequisites',
  'public',
  'published_date',
  'revisionid',
  'steps',
  'subject',
  'summary',
  'time_required',
  'time_required_max',
  'time_required_min',
  'title',
  'tools',
  'type',
  'url',
];

/** What this service adds to a full guide: its contributors, translators and counts. */
export const EXTENSION_GUIDE_KEYS = ['completions_count', 'contributors', 'favorites_count', 'translators', 'views'];

/** The keys of a full guide as this service sends it: the original's and the extensions. */
export const GUIDE_KEYS = [...ORIGINAL_GUIDE_KEYS, ...EXTENSION_GUIDE_KEYS].sort();

export const STEP_KEYS = ['comments', 'guideid', 'lines', 'media', 'orderby', 'revisionid', 'stepid', 'title'];
