/**
 * The client's busy-state rule (`scriptorium/no-hand-kept-busy`, tests/lint/eslint/handKeptBusy.js)
 * run by ESLint with the repository's configuration on planted components.
 */
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function reported(code: string, path = 'frontend/src/planted/Planted.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === 'scriptorium/no-hand-kept-busy').map((message) => message.message.split(' ')[0]!);
}

const HEAD = "import { useState } from 'react';\nimport { api } from '../api.ts';\n";

test('a flag put back when a call settles, or named as a busy flag, is reported', async (t) => {
  t.deepEqual(await reported(`${HEAD}export function A() {\n  const [busy, setBusy] = useState(false);\n  async function go() {\n    setBusy(true);\n    try {\n      await api.save();\n    } finally {\n      setBusy(false);\n    }\n  }\n  return <button disabled={busy} onClick={() => void go()} />;\n}\n`), ['busy', 'setBusy']);
  t.deepEqual(await reported(`${HEAD}export function B() {\n  const [working, setWorking] = useState<string | null>(null);\n  const go = (id: string) => {\n    setWorking(id);\n    void api.save(id).finally(() => setWorking(null));\n  };\n  return <button disabled={working !== null} onClick={() => go('a')} />;\n}\n`), ['setWorking']);
  t.deepEqual(await reported(`${HEAD}export function C() {\n  const [isSaving] = useState(false);\n  return <p>{String(isSaving)}</p>;\n}\n`), ['isSaving']);
});

test('a mutation’s own pending state, state that is not busy and tests are not reported; no client file is exempt', async (t) => {
  const mutation = "import { useApiMutation } from '../api/query.ts';\nexport function D() {\n  const saving = useApiMutation({ mutationFn: () => Promise.resolve() });\n  return <button disabled={saving.isPending} onClick={() => saving.mutate()} />;\n}\n";
  t.deepEqual(await reported(mutation), []);
  t.deepEqual(await reported(`${HEAD}export function E() {\n  const [open, setOpen] = useState(false);\n  return <button onClick={() => setOpen(!open)} />;\n}\n`), []);
  const busy = `${HEAD}export function F() {\n  const [busy] = useState(false);\n  return <p>{String(busy)}</p>;\n}\n`;
  t.deepEqual(await reported(busy, 'frontend/src/planted/Planted.test.tsx'), []);
  t.deepEqual(await reported(busy, 'frontend/src/ui/ConfirmDialog.tsx'), ['busy'], 'the last exceptions are converted');
});
