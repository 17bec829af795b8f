import type { Block, Inline, List } from './ast.js';

/** The text of inline nodes: formatting dropped, links give their label, media nothing, <br /> a newline. */
export function plainInline(nodes: readonly Inline[]): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'strong':
      case 'em':
      case 'link':
        out += plainInline(node.children);
        break;
      case 'image':
      case 'video':
        break;
    }
  }
  return out;
}

/** `Section_` + the heading's text, whitespace runs as `_`, anything but [A-Za-z0-9_-] removed. */
export function headingId(text: string): string {
  return `Section_${text.trim().replace(/\s+/g, '_').replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/** Blocks as text: blocks separated by a blank line, list items one per line. */
export function plainBlocks(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
        case 'paragraph':
          return plainInline(block.children).trim();
        case 'list':
          return listLines(block).join('\n');
        case 'image':
        case 'video':
          return '';
      }
    })
    .filter((text) => text !== '')
    .join('\n\n');
}

function listLines(list: List): string[] {
  return list.items.flatMap((item) => {
    const text = plainInline(item.children).trim();
    return [...(text ? [text] : []), ...item.lists.flatMap(listLines)];
  });
}
