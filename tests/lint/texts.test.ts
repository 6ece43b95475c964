/**
 * The client's text rule (`scriptorium/user-facing-text`, tests/lint/eslint/userFacingText.js) run
 * by ESLint with the repository's own configuration on planted code: every kind of text a reader
 * meets is reported where it is written in code, and nothing is reported in the catalogues, in tests,
 * or for what is not language. `npm run lint` holds the client itself to it.
 */
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

/** The texts the rule reports in `code`, linted as if it were the file at `path` (each message quotes its text). */
async function reported(code: string, path = 'frontend/src/planted/Planted.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === 'scriptorium/user-facing-text').map((message) => /\("(.*)"\)/.exec(message.message)![1]!);
}

const component = (body: string) => `import { useTranslation } from 'react-i18next';\nexport function Planted({ busy }: { busy: boolean }) {\n  const { t } = useTranslation();\n  return (\n    ${body}\n  );\n}\n`;

test('text a reader meets is reported: JSX text, written children, attributes read aloud or shown, Chinese anywhere', async (t) => {
  t.deepEqual(await reported(component('<p>Save the report</p>')), ['Save the report']);
  t.deepEqual(await reported(component('<p>保存</p>')), ['保存']);
  t.deepEqual(await reported(component("<p>{busy ? 'Saving…' : t('save')}</p>")), ['Saving…']);
  t.deepEqual(await reported(component('<p>{`${busy} items left`}</p>')), ['items left']);
  t.deepEqual(await reported(component('<button type="button" aria-label="Close" title="Close the panel" />')), ['Close', 'Close the panel']);
  t.deepEqual(await reported(component('<input placeholder="Your name" />')), ['Your name']);
  t.deepEqual(await reported(component('<img alt="Logo" src="/logo.png" />')), ['Logo']);
  t.deepEqual(await reported(component("<Field label={busy ? 'Busy' : t('idle')} />")), ['Busy']);
  t.deepEqual(await reported(component('<Dialog confirmLabel="Delete" />')), ['Delete']);
  t.deepEqual(await reported("export const FAILED = '上传失败';\n", 'frontend/src/planted/api.ts'), ['上传失败']);
  t.deepEqual(await reported('export const failed = (name: string) => `${name} 上传失败`;\n', 'frontend/src/planted/api.ts'), ['上传失败']);
});

test('what is worded through t(), is not language, or is not client code is not reported', async (t) => {
  t.deepEqual(await reported(component("<p title={t('hint')}>{t('save')} · 3 / 4 — ×</p>")), []);
  t.deepEqual(await reported(component('<code>npm run cli -- chat</code>')), [], 'code is not language');
  t.deepEqual(await reported(component('<input placeholder="https://api.example.com/v1" className="input wide" type="text" data-state="open" />')), [], 'an example URL and attributes nobody reads');
  t.deepEqual(await reported(component('<input placeholder="name@example.com" />')), []);
  t.deepEqual(await reported("console.error('引导程序失败');\n", 'frontend/src/planted/boot.ts'), [], 'a message for developers');
  t.deepEqual(await reported("export const zh = { save: '保存' };\n", 'frontend/src/i18n/planted.zh.ts'), [], 'the catalogues');
  t.deepEqual(await reported(component('<p>Save the report</p>'), 'frontend/src/planted/Planted.test.tsx'), [], 'tests');
  t.deepEqual(await reported(component('<p>Save the report</p>'), 'backend/src/planted/Planted.tsx'), [], 'only the client');
});
