/** The parsed document. Text is kept raw here; the HTML writer escapes it. */

export const IMAGE_SIZES = ['mini', 'thumbnail', 'standard', 'medium', 'large', 'original'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const IMAGE_ALIGNS = ['left', 'center', 'right'] as const;
export type ImageAlign = (typeof IMAGE_ALIGNS)[number];

export type Inline =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'br' }
  | { readonly kind: 'strong' | 'em'; readonly children: Inline[] }
  /** `external`: an absolute http(s) link, opened with rel="nofollow noopener" target="_blank". */
  | { readonly kind: 'link'; readonly href: string; readonly external: boolean; readonly children: Inline[] }
  | Figure;

/** Block-level media: only ever at the top of an inline sequence (never inside strong/em/links). */
export type Figure =
  | { readonly kind: 'image'; readonly src: string; readonly align: ImageAlign }
  | { readonly kind: 'video'; readonly href: string };

export interface List {
  readonly kind: 'list';
  readonly ordered: boolean;
  readonly items: ListItem[];
}

export interface ListItem {
  readonly children: Inline[];
  readonly lists: List[];
}

export type Block =
  | { readonly kind: 'heading'; readonly level: 2 | 3 | 4; readonly id: string; readonly children: Inline[] }
  | { readonly kind: 'paragraph'; readonly children: Inline[] }
  | List
  | Figure;
