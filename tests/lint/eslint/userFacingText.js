/**
 * No user-facing text outside the i18n catalogues in the client: what a reader sees or hears is
 * worded in zh and en there and reached through t(). Reported: JSX text with a letter in it; a string
 * with a letter given as a JSX child or as an attribute a reader meets (aria-label, placeholder,
 * title, alt, label…); and any string with Chinese in it, wherever it is, since Chinese is never a
 * class name or a key (a console message, for developers, excepted). Not text: strings of digits,
 * symbols and punctuation only (·, —, ×, …), a single token that is an example URL, address or
 * identifier, and what is inside <code>, <kbd>, <pre> or <samp>.
 */

const LETTER = /\p{L}/u;
const HAN = /\p{Script=Han}/u;
/** One token with a URL's, an address's or an identifier's marks in it (`https://…`, `name@example.com`, `deepseek-chat`, `sk-…`): an example value, the same in every language. */
const TOKEN = /^[^\s\p{Script=Han}]*[:/@._-][^\s\p{Script=Han}]*$/u;
/** Elements whose text is code or keys, not language. */
const CODE_ELEMENTS = new Set(['code', 'kbd', 'pre', 'samp']);

const isText = (text) => LETTER.test(text) && !TOKEN.test(text.trim());
/** Attributes whose string a reader sees or a screen reader says. */
const USER_FACING = /^(aria-(label|description|placeholder|roledescription|valuetext)|placeholder|title|alt|label|[a-z]+(Label|Title|Text|Placeholder|Description|Message)|description|message|heading|tooltip|confirm|cancel)$/;

/** The strings an expression can evaluate to that are written in it: literals and template parts, through ?: and ||/&&/??. */
function* writtenStrings(node) {
  if (!node) return;
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string') yield { node, text: node.value };
      return;
    case 'TemplateLiteral':
      for (const quasi of node.quasis) yield { node: quasi, text: quasi.value.cooked ?? quasi.value.raw };
      return;
    case 'ConditionalExpression':
      yield* writtenStrings(node.consequent);
      yield* writtenStrings(node.alternate);
      return;
    case 'LogicalExpression':
      yield* writtenStrings(node.left);
      yield* writtenStrings(node.right);
      return;
    default:
      return;
  }
}

/** Whether the node is inside a <code>, <kbd>, <pre> or <samp> element. */
function inCode(node) {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === 'JSXElement' && at.openingElement.name.type === 'JSXIdentifier' && CODE_ELEMENTS.has(at.openingElement.name.name)) return true;
  }
  return false;
}

/** Whether the string is an argument of console.*: a message for developers. */
const logged = (node) => node.parent?.type === 'CallExpression' && node.parent.callee.type === 'MemberExpression' && node.parent.callee.object.type === 'Identifier' && node.parent.callee.object.name === 'console';

const shown = (text) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'User-facing text belongs in the i18n catalogues (zh and en), reached through t().' },
    messages: {
      jsx: 'Text shown to the reader ("{{text}}") belongs in the i18n catalogues, zh and en: use t().',
      attribute: 'The {{name}} attribute is read by the reader ("{{text}}"): put it in the i18n catalogues, zh and en, and use t().',
      chinese: 'Chinese text ("{{text}}") belongs in the zh catalogue, with its English beside it in en: use t().',
    },
    schema: [],
  },
  create(context) {
    const reported = new Set();
    const report = (node, messageId, data) => {
      if (reported.has(node)) return;
      reported.add(node);
      context.report({ node, messageId, data });
    };
    return {
      JSXText(node) {
        const text = node.value.trim();
        if (isText(text) && !inCode(node)) report(node, 'jsx', { text: shown(text) });
      },
      JSXExpressionContainer(node) {
        const parent = node.parent;
        if ((parent.type === 'JSXElement' || parent.type === 'JSXFragment') && !inCode(node)) {
          for (const { node: literal, text } of writtenStrings(node.expression)) if (isText(text)) report(literal, 'jsx', { text: shown(text.trim()) });
        }
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXNamespacedName' ? `${node.name.namespace.name}:${node.name.name.name}` : node.name.name;
        if (!USER_FACING.test(name) || !node.value) return;
        const strings = node.value.type === 'Literal' ? [{ node: node.value, text: String(node.value.value) }] : node.value.type === 'JSXExpressionContainer' ? [...writtenStrings(node.value.expression)] : [];
        for (const { node: literal, text } of strings) if (isText(text)) report(literal, 'attribute', { name, text: shown(text.trim()) });
      },
      Literal(node) {
        if (typeof node.value === 'string' && HAN.test(node.value) && !logged(node)) report(node, 'chinese', { text: shown(node.value) });
      },
      TemplateElement(node) {
        const text = node.value.cooked ?? node.value.raw;
        if (HAN.test(text) && !logged(node.parent)) report(node, 'chinese', { text: shown(text.trim()) });
      },
    };
  },
};
