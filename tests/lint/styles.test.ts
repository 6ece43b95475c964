/**
 * The client's styles: colours, font sizes, spacing and radii come only from the design tokens (in
 * the stylesheets, checked here; in inline styles, by ESLint's `scriptorium/style-tokens`,
 * tests/lint/eslint/styleTokens.js, proven here on planted components), the global folder holds only
 * the tokens and the base (reset and shared primitives), every feature's stylesheet is imported by
 * the feature, and no selector is defined in two files (which of two equal rules wins would depend on
 * which lazy chunk loaded last).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

const root = new URL('../../frontend/src/', import.meta.url).pathname;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const all = [...files(root)].map((path) => relative(root, path));
const css = all.filter((path) => path.endsWith('.css'));
const code = all.filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.test.ts'));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '');

test('no raw hex colour outside the tokens file', (t) => {
  const hex = /(?<![&\w])#[0-9a-fA-F]{3,8}\b/g;
  const found = [...css, ...code]
    .filter((path) => path !== 'styles/tokens.css')
    .flatMap((path) => [...withoutComments(read(path)).matchAll(hex)].map((match) => `${path}: ${match[0]}`));
  t.deepEqual(found, []);
});

const COLOUR_FUNCTION = /(?<![\w-])(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/g;
/** CSS's named colours (CSS Color 4 §6.1), bar transparent and currentColor. */
const NAMED_COLOURS = new Set(
  `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen`.split(' '),
);
const COLOUR_PROPERTY = /^(color|background(-color|-image)?|border(-(top|right|bottom|left|block|inline))?(-color)?|outline(-color)?|box-shadow|text-shadow|fill|stroke|caret-color|accent-color|text-decoration(-color)?|column-rule(-color)?)$/;
const DECLARATION = /(?<![\w-])([a-z-]+)\s*:\s*([^;{}]+)/g;
const declarations = (path: string) => [...withoutComments(read(path)).matchAll(DECLARATION)].map(([, property, value]) => ({ property: property!, value: value! }));

test('no colour function or named colour outside the tokens file', (t) => {
  const functions = [...css, ...code]
    .filter((path) => path !== 'styles/tokens.css')
    .flatMap((path) => [...withoutComments(read(path)).matchAll(COLOUR_FUNCTION)].map((match) => `${path}: ${match[0]}`));
  t.deepEqual(functions, []);
  const named = css
    .filter((path) => path !== 'styles/tokens.css')
    .flatMap((path) =>
      declarations(path)
        .filter(({ property }) => COLOUR_PROPERTY.test(property))
        .flatMap(({ property, value }) => (value.toLowerCase().replace(/var\([^)]*\)/g, '').match(/[a-z]+/g) ?? []).filter((word) => NAMED_COLOURS.has(word)).map((word) => `${path}: ${property}: ${word}`)),
    );
  t.deepEqual(named, []);
});

type Scale = 'font size' | 'spacing' | 'radius';
const scaleOf = (property: string): Scale | null =>
  property === 'font-size'
    ? 'font size'
    : /^((padding|margin)(-(top|right|bottom|left|inline|block)(-(start|end))?)?|gap|row-gap|column-gap)$/.test(property)
      ? 'spacing'
      : /^border(-(top|bottom)-(left|right)|-(start|end)-(start|end))?-radius$/.test(property)
        ? 'radius'
        : null;
/** What a font size, a spacing or a radius may hold besides tokens: no length, and `calc(-1 * var(--…))` for a negative one. */
const KEYWORD = /^(0|auto|inherit|initial|unset|calc|-?\d+(\.\d+)?|[-+*/])$/;
const LENGTH = /\d(\.\d+)?[a-z%]+/i;

/**
 * Font sizes, spacing and radii written outside the tokens in a stylesheet's text: each as
 * `property: value`. A value is tokens (`var(--…)`, with no fallback), the keywords above, or, for a
 * radius, 50% (a circle); a custom property defined outside the tokens may hold no length, since it
 * would be a raw value under another name.
 */
function offScale(text: string): string[] {
  return [...withoutComments(text).matchAll(DECLARATION)].flatMap(([, property, value]) => {
    if (property!.startsWith('--')) return LENGTH.test(value!.replace(/var\(--[\w-]+\)/g, '')) ? [`${property}: ${value!.trim()}`] : [];
    const scale = scaleOf(property!);
    if (scale === null) return [];
    const words = value!.replace(/var\(--[\w-]+\)/g, ' ').replace(/!important/g, ' ').split(/[\s,()]+/).filter(Boolean);
    return words.every((word) => KEYWORD.test(word) || (scale === 'radius' && word === '50%')) ? [] : [`${scale}: ${property}: ${value!.trim()}`];
  });
}

test('font sizes, spacing and radii are the tokens’ in every stylesheet', (t) => {
  t.deepEqual(
    css.filter((path) => path !== 'styles/tokens.css').flatMap((path) => offScale(read(path)).map((found) => `${path}: ${found}`)),
    [],
  );
});

test('the scale check reports planted raw values and passes tokens', (t) => {
  const planted = `
.a { font-size: 12.5px; padding: var(--space-2) 7px; margin: -1px; gap: 1rem; }
.b { border-radius: var(--radius-sm, 6px); border-top-left-radius: 3px; margin-left: 2ch; padding-top: 10%; }
.c { --indent: 14px; font-size: 0.9em; }
`;
  t.deepEqual(offScale(planted), [
    'font size: font-size: 12.5px',
    'spacing: padding: var(--space-2) 7px',
    'spacing: margin: -1px',
    'spacing: gap: 1rem',
    'radius: border-radius: var(--radius-sm, 6px)',
    'radius: border-top-left-radius: 3px',
    'spacing: margin-left: 2ch',
    'spacing: padding-top: 10%',
    '--indent: 14px',
    'font size: font-size: 0.9em',
  ]);
  const clean = `
/* a comment may say 12px */
.d { font-size: var(--text-sm); padding: 0 var(--space-2) !important; margin: calc(-1 * var(--space-px)) auto; border-radius: 50%; }
.e { padding-left: calc(var(--space-1-5) + var(--depth) * var(--space-3-5)); gap: inherit; --hue: var(--collab-0); --depth: 2; }
`;
  t.deepEqual(offScale(clean), []);
});

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function inlineStyleReports(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'frontend/src/planted/Planted.tsx' });
  return result!.messages.filter((message) => message.ruleId === 'scriptorium/style-tokens').map((message) => message.message.split(' ')[0]!);
}

test('an inline style with a raw size, spacing, radius or colour is reported; tokens, 0 and layout are not', async (t) => {
  const HEAD = "import type { CSSProperties } from 'react';\n";
  t.deepEqual(
    await inlineStyleReports(
      `${HEAD}export function A({ depth, wide }: { depth: number; wide: boolean }) {\n  return <div style={{ paddingLeft: 6 + depth * 14, fontSize: 13, borderRadius: '4px', color: 'red', gap: wide ? 'var(--space-2)' : 3, marginTop: \`\${depth}px\` }} />;\n}\n`,
    ),
    ['paddingLeft', 'fontSize', 'borderRadius', 'color', 'gap', 'marginTop'],
  );
  t.deepEqual(await inlineStyleReports(`${HEAD}const style: CSSProperties = { background: '#fff', padding: 0 };\nexport const B = () => <div style={{ ...style, ...(Math.random() > 0.5 && { margin: 8 }) }} />;\n`), ['background', 'margin']);
  t.deepEqual(
    await inlineStyleReports(
      `${HEAD}export function C({ depth, top }: { depth: number; top: number }) {\n  return <div style={{ '--depth': depth, padding: 'var(--space-2) var(--space-3)', margin: 0, gap: 'auto', color: 'var(--text-muted)', top, width: \`\${depth}%\`, height: 32 } as CSSProperties} />;\n}\n`,
    ),
    [],
  );
});

test('the global styles are only the tokens and the base', (t) => {
  t.deepEqual(css.filter((path) => path.startsWith('styles/')).sort(), ['styles/base.css', 'styles/tokens.css']);
  const main = read('main.tsx');
  t.deepEqual([...main.matchAll(/import '(\.[^']+\.css)'/g)].map((match) => match[1]), ['./styles/tokens.css', './styles/base.css']);
});

test('every stylesheet is imported by the code that uses it', (t) => {
  const imported = new Set(
    code.flatMap((path) =>
      [...read(path).matchAll(/import '(\.{1,2}\/[^']+\.css)'/g)].map((match) => relative(root, join(root, path, '..', match[1]!))),
    ),
  );
  t.deepEqual(css.filter((path) => !imported.has(path)), []);
});

test('no selector is defined in two stylesheets', (t) => {
  const owners = new Map<string, string[]>();
  for (const path of css) {
    const text = withoutComments(read(path)).replace(/@keyframes[^{]+\{(?:[^{}]*\{[^}]*\})*\s*\}/g, '');
    for (const [, selectors] of text.matchAll(/([^{}@;]+)\{/g)) {
      for (const selector of selectors!.split(',').map((part) => part.trim().replace(/\s+/g, ' '))) {
        if (selector === '' || /^(from|to|\d+%)$/.test(selector) || !selector.startsWith('.')) continue;
        owners.set(selector, [...new Set([...(owners.get(selector) ?? []), path])]);
      }
    }
  }
  t.deepEqual([...owners].filter(([, paths]) => paths.length > 1), []);
});
