import type { Block, Figure, Inline, List } from './ast.js';
import { escapeHtml } from './escape.js';

/**
 * The HTML writer. The complete vocabulary it can emit (the sanitizer's allow-list mirrors it):
 *   <h2|h3|h4 id="Section_[A-Za-z0-9_-]*">, <p>, <br />, <strong>, <em>, <ul>, <ol>, <li>,
 *   <a href="...">, <a href="..." rel="nofollow noopener" target="_blank">,
 *   <div class="imageBox_left|imageBox_center|imageBox_right"><img src="..." alt="" /></div>,
 *   <div class="videoBox_center"><a href="..." rel="nofollow noopener" target="_blank">video</a></div>.
 * Text and attribute values are always escaped; URLs were vetted by the URL policy when parsed.
 */
const EXTERNAL = ' rel="nofollow noopener" target="_blank"';

export function inlineHtml(nodes: readonly Inline[]): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += escapeHtml(node.text);
        break;
      case 'br':
        out += '<br />';
        break;
      case 'strong':
      case 'em':
        out += `<${node.kind}>${inlineHtml(node.children)}</${node.kind}>`;
        break;
      case 'link':
        out += `<a href="${escapeHtml(node.href)}"${node.external ? EXTERNAL : ''}>${inlineHtml(node.children)}</a>`;
        break;
      case 'image':
      case 'video':
        out += figureHtml(node);
        break;
    }
  }
  return out;
}

function figureHtml(figure: Figure): string {
  return figure.kind === 'image'
    ? `<div class="imageBox_${figure.align}"><img src="${escapeHtml(figure.src)}" alt="" /></div>`
    : `<div class="videoBox_center"><a href="${escapeHtml(figure.href)}"${EXTERNAL}>video</a></div>`;
}

function listHtml(list: List): string {
  const tag = list.ordered ? 'ol' : 'ul';
  const items = list.items.map((item) => `<li>${inlineHtml(item.children)}${item.lists.map(listHtml).join('')}</li>`);
  return `<${tag}>${items.join('')}</${tag}>`;
}

export function blocksHtml(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
          return `<h${block.level} id="${escapeHtml(block.id)}">${inlineHtml(block.children)}</h${block.level}>`;
        case 'paragraph':
          return `<p>${inlineHtml(block.children)}</p>`;
        case 'list':
          return listHtml(block);
        case 'image':
        case 'video':
          return figureHtml(block);
      }
    })
    .join('\n');
}
