import { readFileSync } from 'node:fs';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';

// Test support: validation against the oManual 1.0 schemas with libxml2 (xmllint compiled to
// WebAssembly, a pure npm dependency), the same validation `xmllint --schema` performs.

const schemaFile = (name: string) => ({ fileName: name, contents: readFileSync(new URL(`../xml/omanual-schemas/${name}`, import.meta.url), 'utf8') });

export interface NamedDocument {
  readonly name: string;
  readonly xml: string;
}

export interface SchemaValidation {
  readonly valid: boolean;
  /** xmllint's messages, each prefixed with the document's name. */
  readonly errors: string[];
}

/**
 * Validates documents against `omanual_guide.xsd` or `omanual_category.xsd` strictly: any
 * attribute or element the schema does not declare is an error.
 */
export async function validateOmanual(kind: 'guide' | 'category', documents: readonly NamedDocument[]): Promise<SchemaValidation> {
  if (!documents.length) return { valid: true, errors: [] };
  const result = await validateXML({
    xml: documents.map((d, i) => ({ fileName: `doc-${i}.xml`, contents: d.xml })),
    schema: [schemaFile(`omanual_${kind}.xsd`)],
    preload: [schemaFile('omanual_simplifiedhtml.xsd')],
    maxMemoryPages: 16 * 1024,
  });
  const errors = result.errors.map((e) => {
    const index = e.loc ? Number(/doc-(\d+)\.xml/.exec(e.loc.fileName)?.[1]) : NaN;
    return `${documents[index]?.name ?? e.loc?.fileName ?? '?'}${e.loc ? `:${e.loc.lineNumber}` : ''}: ${e.message}`;
  });
  return { valid: result.valid, errors };
}

/**
 * The API's documents carry the original's `*_raw` attributes (markup beside the rendered text),
 * which the schema does not declare: exactly those are removed, nothing else. The writer escapes
 * every `"` in attribute values, so a value never contains one.
 */
export function withoutRawAttributes(xml: string): string {
  return xml.replace(/\s[A-Za-z_][\w.-]*_raw="[^"]*"/g, '');
}

/** The DOM calls tests use to read documents back. */
export interface XmlElement {
  readonly nodeName: string;
  readonly namespaceURI: string | null;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}

export interface XmlDocument {
  readonly documentElement: XmlElement;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}

/** Parses XML with a real XML parser (xmlbuilder2's) into a DOM document, to read values back. */
export function parseXml(xml: string): XmlDocument {
  return create(xml).node as unknown as XmlDocument;
}
