import { Schema, type DOMOutputSpec, type Node } from 'prosemirror-model';

/**
 * The one ProseMirror schema of shared documents. The server validates every step against it
 * (`Step.fromJSON(collabSchema, json)` applied to its current document) and the editor builds its
 * state from it, so a step one side accepts the other can apply. Nodes, marks and attributes are those
 * of prosemirror-markdown's schema, so a report's Markdown parses into a shared document and the
 * document is written back as Markdown unchanged.
 */
export const collabSchema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: { content: 'inline*', group: 'block', parseDOM: [{ tag: 'p' }], toDOM: (): DOMOutputSpec => ['p', 0] },
    heading: {
      attrs: { level: { default: 1, validate: 'number' } },
      content: 'inline*',
      group: 'block',
      defining: true,
      parseDOM: [1, 2, 3].map((level) => ({ tag: `h${level}`, attrs: { level } })),
      toDOM: (node: Node): DOMOutputSpec => [`h${Math.min(3, Math.max(1, Number(node.attrs.level)))}`, 0],
    },
    blockquote: { content: 'block+', group: 'block', defining: true, parseDOM: [{ tag: 'blockquote' }], toDOM: (): DOMOutputSpec => ['blockquote', 0] },
    code_block: {
      attrs: { params: { default: '', validate: 'string' } },
      content: 'text*',
      marks: '',
      group: 'block',
      code: true,
      defining: true,
      parseDOM: [{ tag: 'pre', preserveWhitespace: 'full' }],
      toDOM: (): DOMOutputSpec => ['pre', ['code', 0]],
    },
    horizontal_rule: { group: 'block', parseDOM: [{ tag: 'hr' }], toDOM: (): DOMOutputSpec => ['hr'] },
    bullet_list: { content: 'list_item+', group: 'block', attrs: { tight: { default: false, validate: 'boolean' } }, parseDOM: [{ tag: 'ul' }], toDOM: (): DOMOutputSpec => ['ul', 0] },
    ordered_list: {
      content: 'list_item+',
      group: 'block',
      attrs: { order: { default: 1, validate: 'number' }, tight: { default: false, validate: 'boolean' } },
      parseDOM: [{ tag: 'ol', getAttrs: (dom: HTMLElement) => ({ order: dom.hasAttribute('start') ? Number(dom.getAttribute('start')) : 1 }) }],
      toDOM: (node: Node): DOMOutputSpec => (node.attrs.order === 1 ? ['ol', 0] : ['ol', { start: Number(node.attrs.order) }, 0]),
    },
    list_item: { content: 'block+', defining: true, parseDOM: [{ tag: 'li' }], toDOM: (): DOMOutputSpec => ['li', 0] },
    text: { group: 'inline' },
    image: {
      inline: true,
      group: 'inline',
      draggable: true,
      attrs: { src: { validate: 'string' }, alt: { default: null, validate: 'string|null' }, title: { default: null, validate: 'string|null' } },
      parseDOM: [{ tag: 'img[src]', getAttrs: (dom: HTMLElement) => ({ src: dom.getAttribute('src'), alt: dom.getAttribute('alt'), title: dom.getAttribute('title') }) }],
      // Only web and inline images load: a peer's document must not make the browser fetch anything else.
      toDOM: (node: Node): DOMOutputSpec => ['img', { src: /^(https?:|data:image\/)/i.test(String(node.attrs.src)) ? String(node.attrs.src) : '', alt: node.attrs.alt ?? '', ...(node.attrs.title ? { title: String(node.attrs.title) } : {}) }],
    },
    hard_break: { inline: true, group: 'inline', selectable: false, parseDOM: [{ tag: 'br' }], toDOM: (): DOMOutputSpec => ['br'] },
  },
  marks: {
    em: { parseDOM: [{ tag: 'i' }, { tag: 'em' }], toDOM: (): DOMOutputSpec => ['em'] },
    strong: { parseDOM: [{ tag: 'b' }, { tag: 'strong' }], toDOM: (): DOMOutputSpec => ['strong'] },
    code: { parseDOM: [{ tag: 'code' }], toDOM: (): DOMOutputSpec => ['code'] },
    link: {
      attrs: { href: { validate: 'string' }, title: { default: null, validate: 'string|null' } },
      inclusive: false,
      parseDOM: [{ tag: 'a[href]', getAttrs: (dom: HTMLElement) => ({ href: dom.getAttribute('href') }) }],
      // Only web and mail links become clickable: a shared document must not carry `javascript:` to a peer.
      toDOM: (mark): DOMOutputSpec => ['a', { href: /^(https?:|mailto:)/i.test(String(mark.attrs.href)) ? String(mark.attrs.href) : '#', rel: 'noopener noreferrer nofollow' }, 0],
    },
  },
});

/** What a new document holds: one empty paragraph (the schema's `block+` needs a block). */
export const emptyCollabDoc = (): Node => collabSchema.node('doc', null, [collabSchema.node('paragraph')]);
