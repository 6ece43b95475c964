/**
 * An inline style (`style={{…}}`, or an object typed `CSSProperties`) holds to the design tokens as
 * the stylesheets do (tests/lint/styles.test.ts): a font size, a padding, margin or gap, a radius or a
 * colour is a token, `'var(--…)'`, or 0, `'auto'`, `'inherit'`. A number or a computed string there
 * is a raw length or colour the tokens never see; a value that has to vary (a tree row's depth) goes
 * in as a custom property the stylesheet multiplies by a token (`'--depth': depth`).
 */

const CHECKED = /^(fontSize|padding\w*|margin\w*|gap|rowGap|columnGap|border\w*Radius|color|background(Color|Image)?|border\w*Color|border(Top|Right|Bottom|Left|Block|Inline)?|outline(Color)?|boxShadow|textShadow|fill|stroke|caretColor|accentColor|textDecorationColor|columnRuleColor)$/;
const ALLOWED = /^(var\(--[\w-]+\)( var\(--[\w-]+\))*|0|auto|inherit)$/;

/** @param {import('estree').Node} node */
const unwrapped = (node) => (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression' ? unwrapped(node.expression) : node);

/** @param {import('estree').Node} node */
function allowed(node) {
  const value = unwrapped(node);
  if (value.type === 'Literal') return value.value === 0 || (typeof value.value === 'string' && ALLOWED.test(value.value));
  if (value.type === 'TemplateLiteral') return value.expressions.length === 0 && ALLOWED.test(value.quasis[0].value.cooked);
  if (value.type === 'ConditionalExpression') return allowed(value.consequent) && allowed(value.alternate);
  return false;
}

const propertyName = (property) => (property.key.type === 'Identifier' && !property.computed ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : null);

const isCssProperties = (annotation) => {
  const type = annotation?.typeAnnotation;
  if (type?.type !== 'TSTypeReference') return false;
  const name = type.typeName;
  return (name.type === 'Identifier' && name.name === 'CSSProperties') || (name.type === 'TSQualifiedName' && name.right.name === 'CSSProperties');
};

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Inline styles use the design tokens for type, spacing, radii and colour.' },
    messages: { raw: "{{name}} takes a token ('var(--…)'), 0, 'auto' or 'inherit', not a raw value: put the value in the stylesheet, or pass a custom property it multiplies by a token." },
    schema: [],
  },
  create(context) {
    function check(node) {
      const object = unwrapped(node);
      if (object.type === 'ConditionalExpression' || object.type === 'LogicalExpression') {
        check(object.type === 'ConditionalExpression' ? object.consequent : object.left);
        check(object.type === 'ConditionalExpression' ? object.alternate : object.right);
        return;
      }
      if (object.type !== 'ObjectExpression') return;
      for (const property of object.properties) {
        if (property.type === 'SpreadElement') {
          check(property.argument);
          continue;
        }
        const name = propertyName(property);
        if (name !== null && CHECKED.test(name) && !allowed(property.value)) context.report({ node: property, messageId: 'raw', data: { name } });
      }
    }
    return {
      JSXAttribute(node) {
        if (node.name.type === 'JSXIdentifier' && node.name.name === 'style' && node.value?.type === 'JSXExpressionContainer') check(node.value.expression);
      },
      VariableDeclarator(node) {
        if (node.init && isCssProperties(node.id.typeAnnotation)) check(node.init);
      },
    };
  },
};
