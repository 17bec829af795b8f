// JSON Schemas (draft 2020-12) of the response bodies of the original API's GET operations, written
// from the reference's resource shapes (reference-api.md §3, section numbers below). Test data, not
// production code: reference-contract.e2e-spec.ts validates every demo object against them.
//
// Conventions, from the reference's own notation: `T?` is nullable (`anyOf: [T, null]`), every field
// a shape lists is required unless the reference says it is conditional (viewer-only, a flag, an
// older response, a namespace); fields the reference says a body does NOT carry are forbidden
// (`not: {required: [...]}`). Objects stay open otherwise (the original adds fields over time),
// except the Image object, whose size names are a closed list.

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const arrayOf = (schema: object) => ({ type: 'array', items: schema });
const forbid = (...keys: string[]) => ({ not: { anyOf: keys.map((k) => ({ required: [k] })) } });
const int = { type: 'integer' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
/** UNIX seconds. */
const ts = { type: 'integer', minimum: 0 };
/** An absolute URL. */
const url = { type: 'string', format: 'uri' };
/** A site-relative or absolute URL. */
const link = { type: 'string', format: 'uri-reference', minLength: 1 };
const obj = (required: string[], properties: Record<string, object>, extra: object = {}) => ({ type: 'object', required, properties, ...extra });

const IMAGE_SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge', 'original'];
const GUIDE_TYPES = ['replacement', 'installation', 'repair', 'disassembly', 'teardown', 'technique', 'maintenance', 'how-to'];
const BULLETS = ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'];
const NAMESPACES = ['WIKI', 'CATEGORY', 'INFO', 'ITEM', 'USER', 'TEAM'];
const COMMENT_CONTEXTS = ['guide', 'step', 'wiki', 'info', 'post', 'story', 'wp_post'];
const BADGE_CATEGORIES = ['badgeGuide', 'badgeAnswers', 'badgeGeneral', 'badgeWorkbench'];

const userSummaryProperties = {
  userid: int,
  username: str,
  unique_username: nullable(str),
  join_date: ts,
  image: nullable(ref('Image')),
  reputation: int,
  url,
  teams: arrayOf(int),
  privileges: arrayOf(str),
};

const guideSummaryProperties = {
  dataType: { const: 'guide' },
  guideid: int,
  locale: str,
  revisionid: int,
  modified_date: ts,
  prereq_modified_date: ts,
  url,
  type: { enum: GUIDE_TYPES },
  category: str,
  subject: str,
  title: str,
  summary: str,
  difficulty: nullable(str),
  time_required_max: int,
  public: bool,
  userid: int,
  username: str,
  flags: arrayOf(str),
  image: nullable(ref('Image')),
};

const wikiSummaryProperties = {
  dataType: { const: 'wiki' },
  wikiid: int,
  namespace: { enum: NAMESPACES },
  title: str,
  display_title: str,
  revisionid: int,
  modified_date: ts,
  langid: str,
  url,
  summary: str,
  text: str,
  author: int,
  image: nullable(ref('Image')),
};
const WIKI_SUMMARY_REQUIRED = ['dataType', 'wikiid', 'namespace', 'title', 'display_title', 'modified_date', 'langid', 'url', 'summary', 'text', 'author', 'image'];

const $defs: Record<string, object> = {
  // §3.1
  Image: {
    type: 'object',
    required: ['id', 'guid', 'original'],
    properties: { id: int, guid: { type: 'string', minLength: 1 }, ...Object.fromEntries(IMAGE_SIZES.map((size) => [size, url])) },
    additionalProperties: false,
  },
  ImageWithMetadata: obj(['image', 'srcid', 'width', 'height', 'ratio', 'markup', 'exif'], {
    image: ref('Image'),
    srcid: nullable(int),
    width: int,
    height: int,
    ratio: { enum: ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'] },
    markup: nullable(str),
    exif: { type: ['object', 'array'] },
  }),
  MediaItem: obj(['type', 'guid', 'objectid', 'documentid', 'ratio', 'mini', 'thumbnail', 'standard', 'medium', 'original', 'width', 'height', 'date'], {
    type: { enum: ['GuideImage', 'GuideVideoObject', 'GuideEmbedObject', 'Document'] },
    guid: str,
    imageid: nullable(int),
    objectid: nullable(int),
    documentid: nullable(int),
    srcid: nullable(int),
    ratio: nullable(str),
    mini: nullable(str),
    thumbnail: nullable(str),
    standard: nullable(str),
    medium: nullable(str),
    original: nullable(str),
    width: nullable(int),
    height: nullable(int),
    filename: nullable(str),
    date: ts,
  }),
  RotateJob: obj(['status', 'item'], { status: { enum: ['processing', 'complete', 'failed'] }, item: nullable(ref('MediaItem')) }),
  // §3.2: guide authors, comment authors, team members, user lists.
  UserSummary: obj(['userid', 'username', 'unique_username', 'join_date', 'image', 'reputation', 'url', 'teams'], userSummaryProperties),
  /** The lists that omit `privileges`: `/users`, team members, guide collaborators. */
  UserSummaryNoPrivileges: { allOf: [ref('UserSummary'), forbid('privileges')] },
  // §3.3: profiles (no `url`), viewer-only fields optional.
  UserInfo: {
    ...obj(['userid', 'username', 'unique_username', 'join_date', 'image', 'reputation', 'teams', 'privileges', 'certification_count', 'badge_counts', 'summary', 'about_raw', 'about_rendered', 'greatest_privilege', 'langid'], {
      ...userSummaryProperties,
      certification_count: int,
      badge_counts: obj(['bronze', 'silver', 'gold', 'total'], { bronze: int, silver: int, gold: int, total: int }),
      summary: nullable(str),
      about_raw: { anyOf: [str, { const: false }] },
      about_rendered: { anyOf: [str, { const: false }] },
      partner: nullable({ type: 'object' }),
      greatest_privilege: str,
      langid: str,
      preferredStoreDomain: str,
      preferredStoreLocale: str,
      authToken: str,
      links: obj([], { manage: str }),
      unread_notification_count: int,
      location: nullable(str),
    }),
    ...forbid('url'),
  },
  /** `GET /user`: the profile with the viewer-only fields. */
  CurrentUser: { allOf: [ref('UserInfo'), { required: ['links', 'unread_notification_count'] }] },
  // §3.4
  GuideSummary: {
    ...obj(Object.keys(guideSummaryProperties), guideSummaryProperties),
    ...forbid('time_required', 'time_required_min'),
  },
  PrerequisiteGuide: {
    ...obj(Object.keys(guideSummaryProperties).filter((k) => k !== 'summary'), guideSummaryProperties),
    ...forbid('summary', 'time_required', 'time_required_min'),
  },
  // §3.7
  Item: obj(['text', 'type', 'quantity', 'notes', 'url', 'thumbnail', 'isoptional', 'featured'], {
    text: str,
    type: str,
    quantity: int,
    notes: nullable(str),
    url: link,
    thumbnail: nullable(url),
    isoptional: bool,
    featured: bool,
  }),
  // §3.8
  Line: obj(['text_raw', 'text_rendered', 'bullet', 'level', 'lineid'], {
    text_raw: str,
    text_rendered: str,
    bullet: { enum: BULLETS },
    level: { type: 'integer', minimum: 0, maximum: 2 },
    lineid: nullable(int),
  }),
  Media: {
    oneOf: [
      obj(['type', 'data'], { type: { const: 'image' }, data: { ...arrayOf(ref('Image')), maxItems: 3 } }),
      obj(['type', 'data'], { type: { const: 'video' }, data: ref('Video') }),
      obj(['type', 'data'], { type: { const: 'embed' }, data: obj(['html'], { html: str, url: str, width: nullable(int), height: nullable(int), title: nullable(str), embedid: int }) }),
    ],
  },
  Step: obj(['stepid', 'guideid', 'orderby', 'revisionid', 'title', 'lines', 'media', 'comments'], {
    stepid: int,
    guideid: int,
    orderby: { type: 'integer', minimum: 1 },
    revisionid: int,
    title: str,
    lines: arrayOf(ref('Line')),
    media: ref('Media'),
    comments: arrayOf(ref('Comment')),
    comment_count: int,
  }),
  // §3.12: replies one level deep, so a top-level comment carries its `replies`.
  Comment: {
    ...obj(['commentid', 'locale', 'context', 'contextid', 'parentid', 'title', 'text_raw', 'text_rendered', 'date', 'modified_date', 'status', 'rating', 'author'], {
      commentid: int,
      locale: nullable(str),
      context: { enum: COMMENT_CONTEXTS },
      contextid: int,
      parentid: nullable(int),
      title: str,
      text_raw: str,
      text_rendered: str,
      date: ts,
      modified_date: ts,
      status: { enum: ['public', 'private', 'deleted'] },
      rating: { const: 0 },
      author: ref('UserSummary'),
      replies: arrayOf(ref('Comment')),
    }),
    if: { properties: { parentid: { type: 'null' } } },
    then: { required: ['replies'] },
    else: { properties: { replies: { maxItems: 0 } } },
  },
  // §3.5: the 42 observed keys; live full guides carry no dataType/userid/username.
  Guide: {
    ...obj(
      [
        'author', 'available_langids', 'can_edit', 'category', 'comments', 'completed', 'conclusion_raw', 'conclusion_rendered', 'created_date', 'difficulty',
        'documents', 'favorited', 'featured_document_embed_url', 'featured_document_thumbnail_url', 'featured_documentid', 'flags', 'guideid', 'image',
        'intro_video', 'intro_video_url', 'introduction_raw', 'introduction_rendered', 'langid', 'locale', 'modified_date', 'parts', 'patrol_threshold',
        'prereq_modified_date', 'prerequisites', 'public', 'published_date', 'revisionid', 'steps', 'subject', 'summary', 'time_required',
        'time_required_max', 'time_required_min', 'title', 'tools', 'type', 'url',
      ],
      {
        guideid: int,
        title: str,
        category: str,
        subject: str,
        type: { enum: GUIDE_TYPES },
        summary: str,
        difficulty: nullable(str),
        time_required: str,
        time_required_min: { type: 'integer', minimum: 0 },
        time_required_max: { type: 'integer', minimum: 0 },
        introduction_raw: nullable(str),
        introduction_rendered: nullable(str),
        conclusion_raw: str,
        conclusion_rendered: str,
        image: nullable(ref('Image')),
        steps: arrayOf(ref('Step')),
        parts: arrayOf(ref('Item')),
        tools: arrayOf(ref('Item')),
        prerequisites: arrayOf(ref('PrerequisiteGuide')),
        // The minimal form clients read, or the full Document (§3.5).
        documents: arrayOf({ anyOf: [obj(['documentid', 'text', 'url', 'download_url'], { documentid: int, text: str, url: link, download_url: link }), ref('Document')] }),
        flags: arrayOf(obj(['title', 'flagid', 'text'], { title: str, flagid: str, text: str })),
        author: ref('UserSummary'),
        revisionid: int,
        created_date: ts,
        published_date: ts,
        modified_date: ts,
        prereq_modified_date: ts,
        public: bool,
        locale: str,
        langid: str,
        available_langids: { ...arrayOf(str), minItems: 1 },
        url,
        patrol_threshold: int,
        can_edit: bool,
        favorited: bool,
        completed: bool,
        comments: arrayOf(ref('Comment')),
        featured_documentid: nullable(int),
        featured_document_embed_url: str,
        featured_document_thumbnail_url: str,
        intro_video_url: nullable(url),
        intro_video: nullable({ type: 'object' }),
        video_info: obj(['type'], { type: { enum: ['none', 'youtube', 'ifixit'] } }),
      },
    ),
    ...forbid('dataType', 'userid', 'username'),
  },
  // §3.10: list items carry no revisionid.
  WikiSummary: obj(WIKI_SUMMARY_REQUIRED, wikiSummaryProperties),
  WikiListItem: { allOf: [ref('WikiSummary'), forbid('revisionid')] },
  Wiki: {
    ...obj(
      ['wikiid', 'namespace', 'title', 'display_title', 'revisionid', 'modified_date', 'created_date', 'langid', 'image', 'author', 'authors', 'contents_raw', 'contents_rendered', 'description', 'flags', 'tags', 'linked_wikis', 'available_langids', 'can_edit', 'page_title', 'source_revisionid'],
      {
        ...wikiSummaryProperties,
        contents_raw: str,
        contents_rendered: str,
        contents_json: { type: 'object' },
        linked_wikis: arrayOf(obj(['wikiid', 'namespace', 'title'], { wikiid: int, namespace: { enum: NAMESPACES }, title: str })),
        created_date: ts,
        ancestors: arrayOf(ref('WikiSummary')),
        children: arrayOf(ref('WikiSummary')),
        parent: nullable(str),
        is_troubleshooting: bool,
        authors: arrayOf(obj(['percent', 'username', 'profile_url'], { userid: int, percent: { type: 'number', minimum: 0, maximum: 100 }, username: str, avatar_url: nullable(str), profile_url: url })),
        tags: arrayOf(str),
        description: str,
        flags: { type: 'object' },
        repairability_score: nullable({ type: 'integer', minimum: 0, maximum: 10 }),
        source_revisionid: nullable(int),
        info: arrayOf(obj(['name', 'value'], { name: str, value: str })),
        suppliers: arrayOf(obj(['part_#', 'type', 'supplier', 'url'], { 'part_#': str, type: str, supplier: str, url: str })),
        documents: arrayOf(obj(['documentid'], { documentid: int })),
        guides: arrayOf(ref('GuideSummary')),
        featured_guides: arrayOf(ref('GuideSummary')),
        related_wikis: arrayOf({ type: 'object' }),
        category_lists: { type: 'object', additionalProperties: arrayOf(ref('WikiSummary')) },
        category_info: { type: 'object' },
        diagrams: arrayOf({ type: 'object' }),
        parts: obj(['url', 'categories'], { url, categories: arrayOf(obj(['tag', 'count', 'url'], { tag: str, count: int, url: { type: 'string' } })) }),
        tools: arrayOf(obj(['title', 'target_url', 'image_url', 'itemcode'], { title: str, target_url: nullable(str), image_url: nullable(str), itemcode: nullable(str) })),
        solutions_url: url,
        maintenance_schedule: { type: 'array' },
        available_langids: { ...arrayOf(str), minItems: 1 },
        can_edit: bool,
        page_title: nullable(str),
      },
    ),
    // The CATEGORY fields (§3.9's live keys of a category page).
    if: { properties: { namespace: { const: 'CATEGORY' } } },
    then: {
      required: [
        'ancestors', 'category_info', 'category_lists', 'children', 'diagrams', 'documents', 'featured_guides', 'guides', 'info', 'is_troubleshooting',
        'maintenance_schedule', 'parts', 'related_wikis', 'repairability_score', 'solutions_url', 'tools',
      ],
    },
  },
  // §3.16
  Maintenance: obj(['schedules', 'inheritedFrom', 'langid'], {
    schedules: arrayOf(
      obj(['wiki_maintenance_scheduleid', 'task', 'status', 'triggers'], {
        wiki_maintenance_scheduleid: int,
        task: str,
        status: { enum: ['active', 'muted', 'archived', 'done'] },
        triggers: arrayOf(obj(['trigger_type', 'metric', 'unit'], { trigger_type: { enum: ['usage', 'time', 'condition'] }, metric: str, unit: str })),
        guideid: nullable(int),
      }),
    ),
    inheritedFrom: nullable(str),
    langid: str,
    revisionid: nullable(int),
  }),
  // §3.11
  CategoryTree: { type: 'object', additionalProperties: { anyOf: [{ type: 'null' }, ref('CategoryTree')] } },
  // §3.14
  Team: obj(['teamid', 'name', 'owner', 'reputation', 'image', 'url', 'member_count', 'description', 'new_member_since'], {
    teamid: int,
    name: str,
    owner: int,
    reputation: int,
    image: nullable(ref('Image')),
    url,
    member_count: { type: 'integer', minimum: 0 },
    description: str,
    new_member_since: ts,
  }),
  // §2.4
  GuideTeams: obj(['guideTeams', 'canIViewGuide', 'canIEditGuide', 'canIChangeGuidePrivacy'], { guideTeams: arrayOf(ref('Team')), canIViewGuide: bool, canIEditGuide: bool, canIChangeGuidePrivacy: bool }),
  // §2.7
  RepairService: obj(['wikiid', 'displayTitle', 'url'], { wikiid: int, displayTitle: str, url }),
  // §3.15
  BadgeListItem: obj(['earned', 'times_earned', 'date', 'badge'], {
    earned: bool,
    times_earned: { type: 'integer', minimum: 0 },
    date: nullable(ts),
    badge: obj(['badgeid', 'name', 'type', 'category', 'description', 'multiple', 'num_users', 'icon', 'image', 'secondary_color'], {
      badgeid: int,
      name: str,
      type: { enum: ['bronze', 'silver', 'gold'] },
      category: { enum: BADGE_CATEGORIES },
      description: str,
      multiple: bool,
      num_users: { type: 'integer', minimum: 0 },
      icon: nullable(str),
      image: { anyOf: [url, { const: '' }] },
      secondary_color: str,
    }),
  }),
  // §3.19
  Favorite: obj(['date', 'guide'], { date: ts, guide: ref('GuideSummary') }),
  // §2.2: `{guide: {<flagid>: <flag definition>}}`.
  UserFlags: obj(['guide'], { guide: { type: 'object', additionalProperties: obj(['flagid', 'title'], { flagid: str, title: str, text: str }) } }),
  // §3.13
  Video: obj(['videoid', 'objectid', 'filename', 'duration', 'width', 'height', 'image', 'encodings'], {
    videoid: int,
    objectid: int,
    srcid: nullable(int),
    filename: str,
    duration: { type: 'integer', minimum: 0 },
    width: int,
    height: int,
    image: nullable(ref('ImageWithMetadata')),
    encodings: arrayOf(
      // The reference names `codecs` without a type; an encoding kept as uploaded has none known.
      obj(['column', 'label', 'width', 'height', 'codecs', 'mime', 'format', 'url', 'always_generate'], { column: str, label: str, width: int, height: int, codecs: nullable(str), mime: str, format: str, url, always_generate: bool }),
    ),
  }),
  Document: obj(
    ['documentid', 'guid', 'title', 'size', 'document_type', 'document_extension', 'document_group', 'standard', 'thumbnail', 'mini', 'edit_url', 'view_url', 'download_url', 'date', 'pages', 'type'],
    {
      documentid: int,
      guid: str,
      filename: nullable(str),
      title: str,
      size: { type: 'integer', minimum: 0 },
      thumbnailid: nullable(int),
      imageid: nullable(int),
      document_type: str,
      document_extension: str,
      document_group: str,
      standard: nullable(str),
      thumbnail: nullable(str),
      mini: nullable(str),
      edit_url: { type: 'string', pattern: '^(https?://[^/]+)?/Document/Edit/' },
      view_url: { type: 'string', pattern: '^(https?://[^/]+)?/Document/' },
      download_url: link,
      date: ts,
      summary: nullable(str),
      pages: nullable(int),
      type: { const: 'Document' },
    },
  ),
  // §3.18
  Story: obj(
    ['storyid', 'langid', 'status', 'view_url', 'title_raw', 'title_rendered', 'intro_raw', 'intro_rendered', 'body_raw', 'body_rendered', 'conclusion_raw', 'conclusion_rendered', 'rating', 'author', 'date', 'modified_date', 'images', 'products', 'guides'],
    {
      storyid: int,
      langid: str,
      status: { enum: ['open', 'deleted'] },
      view_url: url,
      title_raw: str,
      title_rendered: str,
      intro_raw: str,
      intro_rendered: str,
      body_raw: str,
      body_rendered: str,
      conclusion_raw: str,
      conclusion_rendered: str,
      rating: nullable({ type: 'integer', minimum: 1, maximum: 5 }),
      author: ref('UserSummary'),
      date: ts,
      modified_date: ts,
      images: arrayOf(ref('Image')),
      products: arrayOf(
        obj(['dataType', 'langid', 'title', 'text', 'url', 'price', 'productCode', 'optionid', 'itemCode', 'optionTitle', 'image'], {
          dataType: { const: 'product' },
          langid: str,
          title: str,
          text: str,
          url,
          price: str,
          productCode: str,
          optionid: nullable(int),
          itemCode: str,
          optionTitle: str,
          // §3.18's `image{id:null, mini, thumbnail, standard, original}`; §3.1: `image` is null when there is none.
          image: nullable(obj(['id', 'mini', 'thumbnail', 'standard', 'original'], { id: { type: 'null' }, mini: url, thumbnail: url, standard: url, original: url })),
        }),
      ),
      guides: arrayOf(ref('GuideSummary')),
    },
  ),
  // §3.17
  WikiSearchResult: obj(['dataType', 'wikiid', 'namespace', 'langid', 'title', 'display_title', 'summary', 'text', 'url', 'modified_date', 'author', 'image'], wikiSummaryProperties),
  Suggest: obj(['query', 'results'], {
    query: str,
    results: { type: 'array', maxItems: 10, items: { oneOf: [ref('GuideSummary'), ref('WikiSearchResult'), obj(['dataType'], { dataType: { enum: ['question', 'product', 'page', 'post'] } })] } },
  }),
  // Legacy endpoints the official clients call (§2.5, §2.10, §3.9, §3.11, §3.17).
  LegacyCategory: obj(
    ['title', 'display_title', 'locale', 'topic_info', 'image', 'description', 'flags', 'categories', 'ancestors', 'children', 'solutions', 'parts', 'tools', 'guides', 'contents_raw', 'contents_rendered'],
    {
      title: str,
      display_title: str,
      locale: str,
      topic_info: obj(['name', 'manufacturer', 'introduced', 'discontinued'], { name: str, manufacturer: nullable(str), introduced: nullable(str), discontinued: nullable(str) }),
      image: nullable(ref('Image')),
      description: str,
      flags: { type: 'array' },
      categories: arrayOf(str),
      ancestors: arrayOf(str),
      children: arrayOf(str),
      solutions: obj(['url', 'count'], { url, count: { type: 'integer', minimum: 0 } }),
      parts: obj(['url', 'categories'], { url, categories: arrayOf(obj(['tag', 'count', 'url'], { tag: str, count: int, url: { type: 'string' } })) }),
      tools: arrayOf(obj(['text', 'url'], { text: str, url: { type: 'string' } })),
      guides: arrayOf(ref('GuideSummary')),
      contents_raw: str,
      contents_rendered: str,
    },
  ),
  CategoryTreeWithTitles: obj(['hierarchy', 'display_titles'], {
    hierarchy: { anyOf: [ref('CategoryTree'), { type: 'array', maxItems: 0 }] },
    display_titles: { type: 'object', additionalProperties: str },
  }),
  LegacySearch: obj(['search', 'limit', 'offset', 'totalResults', 'moreResults', 'results'], {
    search: str,
    limit: { type: 'integer', minimum: 1, maximum: 200 },
    offset: { type: 'integer', minimum: 0 },
    totalResults: { type: 'integer', minimum: 0 },
    moreResults: bool,
    results: arrayOf({
      oneOf: [
        ref('GuideSummary'),
        obj(['dataType', 'title', 'display_title', 'namespace', 'summary', 'text', 'url', 'image'], { ...wikiSummaryProperties }),
        obj(['dataType', 'title', 'text', 'url', 'price', 'productCode', 'image'], { dataType: { const: 'product' } }),
      ],
    }),
  }),
  SiteInfo: obj(
    ['siteid', 'name', 'domain', 'custom_domain', 'title', 'theme', 'private', 'description', 'answers', 'store', 'authentication', 'guide-types', 'object-name-singular', 'object-name-plural', 'feature-mobile-scanner', 'google-oauth2-clientid', 'logo'],
    {
      siteid: int,
      name: str,
      domain: str,
      custom_domain: nullable(str),
      title: str,
      theme: str,
      private: bool,
      description: str,
      answers: bool,
      store: bool,
      authentication: obj(['standard', 'sso', 'public-registration'], { standard: bool, sso: bool, 'public-registration': bool }),
      'guide-types': { type: 'object', minProperties: 1, additionalProperties: obj(['title', 'prompt'], { title: str, prompt: str }) },
      'object-name-singular': str,
      'object-name-plural': str,
      'feature-mobile-scanner': bool,
      'google-oauth2-clientid': nullable(str),
      // `{image: {id, original}}`; null for a site without a logo (§3.1: no image, null).
      logo: nullable(obj(['image'], { image: obj(['id', 'original'], { id: int, original: url }) })),
    },
  ),
  Collection: obj(['collectionid', 'title', 'date', 'image', 'guides'], { collectionid: int, title: str, date: ts, image: nullable(ref('Image')), guides: arrayOf(ref('GuideSummary')) }),
  Embed: obj(['embedid', 'objectid', 'type', 'mini', 'thumbnail', 'standard', 'medium', 'view_url', 'width', 'height', 'html', 'filename', 'provider', 'date'], {
    embedid: int,
    objectid: int,
    imageid: nullable(int),
    type: { const: 'GuideEmbedObject' },
    mini: nullable(str),
    thumbnail: nullable(str),
    standard: nullable(str),
    medium: nullable(str),
    html: str,
    filename: str,
    provider: str,
    view_url: str,
    width: nullable(int),
    height: nullable(int),
    date: ts,
  }),
};

/** One schema document: every definition under `$defs`, each operation's response by `$ref`. */
export const REFERENCE_SCHEMAS = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://reference.invalid/api-2.0/responses', $defs };

/** The response schema of each GET operation of the original (reference §2), as a `$ref` into REFERENCE_SCHEMAS. */
export const GET_RESPONSES: Record<string, object> = {
  'GET /user': ref('CurrentUser'),
  'GET /users': arrayOf(ref('UserSummaryNoPrivileges')),
  'GET /users/{userid}': ref('UserInfo'),
  'GET /users/{userid}/badges': arrayOf(ref('BadgeListItem')),
  'GET /user/badges': arrayOf(ref('BadgeListItem')),
  'GET /users/{userid}/favorites/guides': arrayOf(ref('Favorite')),
  'GET /user/favorites/guides': arrayOf(ref('Favorite')),
  'GET /users/{userid}/guides': arrayOf(ref('GuideSummary')),
  'GET /user/guides': arrayOf(ref('GuideSummary')),
  'GET /users/{userid}/completions': arrayOf(ref('GuideSummary')),
  'GET /user/completions': arrayOf(ref('GuideSummary')),
  'GET /user/flags': ref('UserFlags'),
  'GET /user/media/images': arrayOf(ref('ImageWithMetadata')),
  'GET /user/media/images/rotate/{jobID}': ref('RotateJob'),
  'GET /user/media/videos': arrayOf(ref('Video')),
  'GET /guides': arrayOf(ref('GuideSummary')),
  'GET /guides/{guideid}': ref('Guide'),
  'GET /guides/{guideid}/tags': arrayOf(str),
  'GET /guides/{guideid}/users': arrayOf(ref('UserSummaryNoPrivileges')),
  'GET /guides/{guideid}/teams': ref('GuideTeams'),
  'GET /wikis/{namespace}': arrayOf(ref('WikiListItem')),
  'GET /wikis/{namespace}/{title}': ref('Wiki'),
  'GET /wikis/{namespace}/{title}/tags': arrayOf(str),
  'GET /wikis/maintenance/CATEGORY/{title}': ref('Maintenance'),
  'GET /categories': ref('CategoryTree'),
  'GET /comments': arrayOf(ref('Comment')),
  'GET /comments/{commentid}': ref('Comment'),
  'GET /tags': arrayOf(str),
  'GET /teams': arrayOf(ref('Team')),
  'GET /teams/{teamid}': arrayOf(ref('UserSummaryNoPrivileges')),
  'GET /teams/{teamid}/repair_services': arrayOf(ref('RepairService')),
  'GET /stories': { ...arrayOf(ref('Story')), maxItems: 50 },
  'GET /stories/{storyid}': ref('Story'),
  'GET /suggest/{query}': ref('Suggest'),
  'GET /media/images/{image}': ref('ImageWithMetadata'),
  'GET /media/videos/{video}': ref('Video'),
  'GET /media/documents/{document}': ref('Document'),
};

/** The legacy GET operations (not in the original's machine-readable description, §2 marks them) that official clients call. */
export const LEGACY_GET_RESPONSES: Record<string, object> = {
  'GET /guides/featured': arrayOf({ allOf: [ref('GuideSummary'), { properties: { flags: { contains: { const: 'GUIDE_STARRED' } } } }] }),
  'GET /categories?withDisplayTitles': ref('CategoryTreeWithTitles'),
  'GET /categories/all': arrayOf(str),
  'GET /categories/{name}': ref('LegacyCategory'),
  'GET /wikis/CATEGORY?display=hierarchy': ref('CategoryTree'),
  'GET /search/{query}': ref('LegacySearch'),
  'GET /sites/info': ref('SiteInfo'),
  'GET /info': ref('SiteInfo'),
  'GET /collections': arrayOf(ref('Collection')),
  'GET /user/media/embeds': arrayOf(ref('Embed')),
};
