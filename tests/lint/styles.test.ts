/**
 * The client's styles: colours, font sizes, spacing and radii come only from the design tokens, the
 * global folder holds only the tokens and the base (reset and shared primitives), every feature's
 * stylesheet is imported by the feature, and no selector is defined in two files (which of two equal
 * rules wins would depend on which lazy chunk loaded last).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';

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

type Scale = 'fontSize' | 'spacing' | 'radius';
const scaleOf = (property: string): Scale | null =>
  property === 'font-size'
    ? 'fontSize'
    : /^((padding|margin)(-(top|right|bottom|left|inline|block)(-(start|end))?)?|gap|row-gap|column-gap)$/.test(property)
      ? 'spacing'
      : /^border(-(top|bottom)-(left|right))?-radius$/.test(property)
        ? 'radius'
        : null;
const LENGTH = /(?<![\w.-])-?\d+(?:\.\d+)?(?:px|rem|em)\b/g;
const TOKEN_PREFIX: Record<Scale, string> = { fontSize: '--text-', spacing: '--space-', radius: '--radius' };

/**
 * Raw lengths still written in font sizes, spacing and radii, per stylesheet: values off the scales
 * (12.5px type, a 3px nudge, a 10px corner), kept until a design pass folds them into the scales.
 * The count must match, so it only goes down: a new raw length fails here, and so does a cleaned-up
 * stylesheet whose number was not lowered.
 */
const OFF_SCALE: Record<string, Partial<Record<Scale, number>>> = {
  'account/account.css': { fontSize: 4, spacing: 6, radius: 2 },
  'agents/agents.css': { fontSize: 4, spacing: 4, radius: 2 },
  'app/shell/shell.css': { spacing: 4, radius: 5 },
  'cognition/cognition.css': { fontSize: 22, spacing: 20, radius: 9 },
  'collab/collab.css': { spacing: 4, radius: 4 },
  'components/connection.css': { spacing: 1 },
  'components/markdown.css': { fontSize: 6, spacing: 6, radius: 1 },
  'components/pageState.css': { fontSize: 2, spacing: 1, radius: 1 },
  'engineer/engineer.css': { spacing: 1 },
  'notes/notes.css': { fontSize: 6, spacing: 7, radius: 2 },
  'panels/research.css': { fontSize: 14, spacing: 20, radius: 15 },
  'ppt/ppt.css': { fontSize: 3, spacing: 3 },
  'routes/audit/audit.css': { fontSize: 1 },
  'routes/demo-i18n/demo-i18n.css': { spacing: 2 },
  'routes/login/auth.css': { spacing: 4 },
  'routes/manage/manage.css': { spacing: 9, radius: 1 },
  'routes/oauth-authorize/oauth.css': { spacing: 1 },
  'routes/writing-agent/writing.css': { fontSize: 2, spacing: 1 },
  'share/share.css': { fontSize: 3, spacing: 4 },
  'styles/base.css': { fontSize: 1, spacing: 7 },
  'trajectories/cli.css': { fontSize: 11, spacing: 9, radius: 6 },
  'ui/ui.css': { fontSize: 1, spacing: 1, radius: 3 },
};

test('font sizes, spacing and radii are the tokens’: a value on a scale is written as its token, and no new one off it', (t) => {
  const tokens = declarations('styles/tokens.css');
  const onScale = (scale: Scale) => new Map(tokens.filter(({ property }) => property.startsWith(TOKEN_PREFIX[scale])).map(({ property, value }) => [value.trim(), property]));
  const scales = { fontSize: onScale('fontSize'), spacing: onScale('spacing'), radius: onScale('radius') };
  const written: string[] = [];
  const counts: Record<string, Partial<Record<Scale, number>>> = {};
  for (const path of css.filter((path) => path !== 'styles/tokens.css')) {
    for (const { property, value } of declarations(path)) {
      const scale = scaleOf(property);
      if (scale === null) continue;
      for (const [length] of value.matchAll(LENGTH)) {
        const token = scales[scale].get(length);
        if (token !== undefined) written.push(`${path}: ${property}: ${length} is var(${token})`);
        else (counts[path] ??= {})[scale] = ((counts[path] ??= {})[scale] ?? 0) + 1;
      }
    }
  }
  t.deepEqual(written, []);
  t.deepEqual(counts, OFF_SCALE);
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
