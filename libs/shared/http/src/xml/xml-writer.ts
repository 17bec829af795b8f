import { Parser } from 'htmlparser2';
import { create, createCB } from 'xmlbuilder2';

type XMLBuilderCB = ReturnType<typeof createCB>;

/** The oManual 1.0 namespace (omanual_guide.xsd, omanual_category.xsd). */
export const OMANUAL_NS = 'http://omanual.com/';

export type AttributeValue = string | number | null | undefined;
export type Attributes = Record<string, AttributeValue>;

// Characters XML 1.0 forbids (C0 controls but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF),
// and the three noncharacters used below as placeholders: stripped from every text.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFDCF\uFDD3-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// xmlbuilder2 leaves `&lt;`, `&gt;`, `&amp;`, `&apos;` and `&quot;` in a value as they are (it
// takes them for escapes already made), so a user's literal "&lt;" would read back as "<". Its
// ampersand is escaped here first; the library escapes every other `&`, `<`, `>` and `"` itself.
const ENTITY_LIKE = /&(?=(?:lt|gt|amp|apos|quot);)/g;

// A literal tab or line break inside an attribute value is read back as a space (XML attribute
// value normalisation), and a carriage return in text as a line feed. They are written as
// character references: placeholders (noncharacters, stripped from any input above) go through
// the library and are replaced in its output.
const TAB = '\uFDD0';
const LF = '\uFDD1';
const CR = '\uFDD2';
const PLACEHOLDERS = /[\uFDD0-\uFDD2]/g;
const REFERENCE: Record<string, string> = { [TAB]: '&#9;', [LF]: '&#10;', [CR]: '&#13;' };

/** The text without the characters XML 1.0 forbids. */
export function withoutForbidden(value: string): string {
  return value.replace(FORBIDDEN, '');
}

/** Any text made ready for the builder: forbidden characters removed, markup kept as text. */
function xmlText(value: string): string {
  return withoutForbidden(value).replace(ENTITY_LIKE, '&amp;');
}

function attributeText(value: string): string {
  return xmlText(value).replace(/\t/g, TAB).replace(/\n/g, LF).replace(/\r/g, CR);
}

/**
 * A value for an `xs:anyURI` attribute or element: characters that may not appear in a URI
 * reference (spaces, quotes, non-ASCII, ...) are percent-encoded; anything already encoded stays.
 */
export function anyUri(value: string): string {
  return withoutForbidden(value).replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c));
}

export interface XmlWriterOptions {
  /** Indent the output (`?pretty`). Mixed content is indented too: for people, not for parsing. */
  readonly pretty?: boolean;
  /** The default namespace of every element (oManual documents); none for error bodies. */
  readonly namespace?: string | null;
}

const restoreReferences = (text: string) => text.replace(PLACEHOLDERS, (c) => REFERENCE[c]!);

function cleanAttributes(attributes: Attributes): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) attrs[key] = attributeText(String(value));
  }
  return attrs;
}

/**
 * Writes an XML document with xmlbuilder2, element by element. Every string is made safe first
 * (see `xmlText`) and the library escapes and checks well-formedness, so any user text (control
 * characters, markup-looking text) yields well-formed XML. Subclasses choose how the document is
 * held: as a tree serialised at the end (`XmlWriter`), or serialised as it goes (`StreamingXmlWriter`).
 */
export abstract class XmlOutput {
  protected depth = 0;

  protected abstract element(name: string, attributes: Record<string, string>): void;
  protected abstract appendText(text: string): void;
  protected abstract up(): void;

  /** Opens an element; `null` and `undefined` attributes are left out. */
  open(name: string, attributes: Attributes = {}): this {
    this.element(name, cleanAttributes(attributes));
    this.depth++;
    return this;
  }

  text(value: string | number): this {
    const text = xmlText(String(value)).replace(/\r/g, CR);
    if (text) this.appendText(text);
    return this;
  }

  close(): this {
    if (this.depth === 0) throw new Error('XmlOutput: close() without an open element');
    this.up();
    this.depth--;
    return this;
  }

  /** An element holding only text (or nothing). */
  leaf(name: string, text: string | number | null = null, attributes: Attributes = {}): this {
    this.open(name, attributes);
    if (text !== null) this.text(text);
    return this.close();
  }

  /** Rendered HTML as elements of the simplified-HTML vocabulary the schemas allow (see `writeHtml`). */
  html(fragment: string): this {
    writeHtml(this, fragment);
    return this;
  }
}

type DomNode = ReturnType<ReturnType<typeof create>['ele']>;

/** A document built as a tree and serialised at the end: the fast way for documents of ordinary size. */
export class XmlWriter extends XmlOutput {
  private readonly doc = create({ version: '1.0', encoding: 'UTF-8' });
  private current: DomNode | null = null;
  private readonly namespace: string | null;

  constructor(private readonly options: XmlWriterOptions = {}) {
    super();
    this.namespace = options.namespace === undefined ? OMANUAL_NS : options.namespace;
  }

  protected element(name: string, attributes: Record<string, string>): void {
    if (this.current) this.current = this.current.ele(name, attributes);
    else this.current = this.namespace ? this.doc.ele(this.namespace, name, attributes) : this.doc.ele(name, attributes);
  }

  protected appendText(text: string): void {
    if (!this.current) throw new Error('XmlWriter: text outside the document element');
    this.current.txt(text);
  }

  protected up(): void {
    this.current = this.depth > 1 ? this.current!.up() : null;
  }

  /** The whole document. */
  end(): string {
    while (this.depth > 0) this.close();
    return restoreReferences(this.doc.end({ prettyPrint: !!this.options.pretty, wellFormed: true }));
  }
}

/**
 * A document serialised as it is written (xmlbuilder2's callback builder), for documents of any
 * length: `take()` hands over the text produced so far, `end()` the rest.
 */
export class StreamingXmlWriter extends XmlOutput {
  private readonly builder: XMLBuilderCB;
  private output = '';
  private failure: Error | null = null;

  constructor(options: XmlWriterOptions = {}) {
    super();
    const namespace = options.namespace === undefined ? OMANUAL_NS : options.namespace;
    this.builder = createCB({
      data: (chunk: string) => {
        this.output += restoreReferences(chunk);
      },
      prettyPrint: !!options.pretty,
      wellFormed: true,
      ...(namespace ? { defaultNamespace: { ele: namespace, att: null } } : {}),
    });
    this.builder.on('error', (error: Error) => {
      this.failure ??= error;
    });
    this.builder.dec({ version: '1.0', encoding: 'UTF-8' });
  }

  protected element(name: string, attributes: Record<string, string>): void {
    this.builder.ele(name, attributes);
  }

  protected appendText(text: string): void {
    this.builder.txt(text);
  }

  protected up(): void {
    this.builder.up();
  }

  /** How much text `take()` would return now. */
  get pendingLength(): number {
    return this.output.length;
  }

  /** The document text produced since the last call. */
  take(): string {
    if (this.failure) throw new Error(`XML could not be written: ${this.failure.message}`);
    const text = this.output;
    this.output = '';
    return text;
  }

  /** Closes what is open and returns the rest of the document. */
  end(): string {
    while (this.depth > 0) this.close();
    this.builder.end();
    return this.take();
  }
}

/** The elements of omanual_simplifiedhtml.xsd, which rendered text may use inside oManual documents. */
const ALLOWED_ELEMENTS = new Set(['p', 'a', 'strong', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tt', 'pre', 'code', 'br', 'ul', 'li', 'sub', 'sup', 'del', 'ins', 'div']);
const ALLOWED_ATTRIBUTES = new Set(['id', 'class', 'href', 'rel', 'title', 'target']);
/** HTML elements the schema lacks, written as the closest allowed one. */
const RENAMED: Record<string, { name: string; class?: string }> = {
  b: { name: 'strong' },
  i: { name: 'em' },
  s: { name: 'del' },
  ol: { name: 'ul', class: 'ordered' },
};
/** Elements dropped with everything inside them. */
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript']);

/**
 * Writes an HTML fragment (the renderer's output) as XML elements: allowed elements keep their
 * allowed attributes, a few others are renamed (`ol` → `ul class="ordered"`, `b` → `strong`),
 * an image becomes a link to it (`<a class="image" href="src">alt</a>`), any other element is
 * unwrapped (its text kept) and script-like ones dropped. The parser balances unclosed tags.
 */
export function writeHtml(writer: XmlOutput, fragment: string): void {
  if (!fragment) return;
  // For each open HTML element: whether it opened an XML element (to close it at its end tag).
  const open: boolean[] = [];
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (dropping || DROPPED.has(name)) {
          if (DROPPED.has(name)) dropping++;
          open.push(false);
          return;
        }
        if (name === 'img') {
          const src = attribs['src'];
          if (src) {
            writer.open('a', { class: 'image', href: anyUri(src) });
            if (attribs['alt']) writer.text(attribs['alt']);
            writer.close();
          }
          open.push(false);
          return;
        }
        const renamed = RENAMED[name];
        const element = renamed?.name ?? name;
        if (!ALLOWED_ELEMENTS.has(element)) {
          open.push(false);
          return;
        }
        const attributes: Attributes = {};
        for (const [key, value] of Object.entries(attribs)) {
          if (ALLOWED_ATTRIBUTES.has(key)) attributes[key] = key === 'href' ? anyUri(value) : value;
        }
        if (renamed?.class) attributes['class'] = [attributes['class'], renamed.class].filter(Boolean).join(' ');
        writer.open(element, attributes);
        open.push(true);
      },
      ontext(text) {
        if (!dropping) writer.text(text);
      },
      onclosetag(name) {
        const opened = open.pop();
        if (DROPPED.has(name) && dropping) dropping--;
        if (opened) writer.close();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(fragment);
  parser.end();
}

/** Unix seconds as an `xs:dateTime` in UTC, e.g. `2024-05-01T12:00:00Z`. */
export function isoDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
