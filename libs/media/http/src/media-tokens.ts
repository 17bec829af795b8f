/** The HTTP adapter's settings (URLs of the files, the site's base URL). */
export const MEDIA_SETTINGS = Symbol('MediaHttpSettings');
