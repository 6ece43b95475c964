import test from 'ava';
import { z } from 'zod';
import { FETCH_CODES } from '@scriptorium/infra/fetch/errors';
import { anyErrorText, ERROR_TEXTS, errorText, isErrorCode } from './errors.ts';
import { validationIssue } from './validation.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

test('every code is area.what, with the same placeholders in both languages', (t) => {
  for (const [code, texts] of Object.entries(ERROR_TEXTS)) {
    t.regex(code, /^[a-z]+\.[a-z_]+$/, code);
    t.deepEqual(placeholders(texts.en), placeholders(texts.zh), code);
  }
});

test('every code the fetcher refuses a page with is in the catalogue', (t) => {
  t.deepEqual(
    FETCH_CODES.filter((code) => !isErrorCode(code)),
    [],
  );
  t.is(anyErrorText('fetch.dns_failed', { host: 'example.com' }, 'en'), 'The domain example.com could not be found');
});

test('texts fill their params in either language', (t) => {
  t.is(errorText('notes.too_many', { max: 500 }), '笔记最多 500 篇，请先删除不需要的笔记');
  t.is(errorText('notes.too_many', { max: 500 }, 'en'), 'You can have at most 500 notes; please delete some first');
  t.is(errorText('budget.exhausted'), 'Token使用额度已用尽，请联系管理员进行充值');
});

test('no zod issue reaches the wire in English, and each has a code', (t) => {
  const schemas: Array<[z.ZodType, unknown]> = [
    [z.object({ name: z.string() }), {}],
    [z.object({ name: z.string() }), { name: 3 }],
    [z.string().min(3), 'a'],
    [z.string().max(2), 'abc'],
    [z.array(z.number()).min(1), []],
    [z.number().int(), 1.5],
    [z.number().positive(), 0],
    [z.number().max(10), 11],
    [z.enum(['a', 'b']), 'c'],
    [z.literal('x'), 'y'],
    [z.email(), 'nope'],
    [z.uuid(), 'nope'],
    [z.url(), 'nope'],
    [z.string().regex(/^a$/), 'b'],
    [z.number().multipleOf(3), 4],
    [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }],
    [z.union([z.string(), z.number()]), true],
    [z.string().refine(() => false), 'x'],
    [z.record(z.enum(['a']), z.string()), { b: 'x' }],
    [z.coerce.number(), 'abc'],
  ];
  for (const [schema, input] of schemas) {
    const result = schema.safeParse(input);
    t.false(result.success);
    for (const issue of result.error?.issues ?? []) {
      const item = validationIssue(issue, 'body');
      t.regex(item.msg, /[\u4e00-\u9fa5]/, `${JSON.stringify(input)}: ${item.msg}`);
      t.true(item.code.startsWith('validation.'), item.code);
    }
  }
});

test('a missing field is required, a bound travels as a param, a schema may word its refusal as a code', (t) => {
  const [missing] = z.object({ name: z.string() }).safeParse({}).error!.issues;
  t.like(validationIssue(missing!, 'body'), { loc: ['body', 'name'], msg: '缺少必填字段', code: 'validation.required' });
  const [short] = z.string().min(8).safeParse('x').error!.issues;
  t.like(validationIssue(short!, 'body'), { msg: '至少 8 个字符', code: 'validation.too_small_string', params: { min: 8 } });
  const [long] = z.string().max(200, 'notes.name_too_long').safeParse('x'.repeat(201)).error!.issues;
  t.like(validationIssue(long!, 'body'), { msg: '笔记名称最多 200 个字符', code: 'notes.name_too_long', params: { max: 200 } });
});

test('a coded schema message carries only the params its text names', (t) => {
  const [missing] = z.object({ password: z.string({ error: 'auth.password_required' }) }).safeParse({}).error!.issues;
  t.deepEqual(validationIssue(missing!, 'body'), { loc: ['body', 'password'], msg: '请输入密码', type: 'invalid_type', code: 'auth.password_required' });
  const [agent] = z.enum(['chat', 'research'], { error: 'conversation.agent_invalid' }).safeParse(undefined).error!.issues;
  t.like(validationIssue(agent!, 'body'), { msg: 'agent 只能是 chat、research', params: { values: 'chat、research' } });
});

test('a word-valued param is worded in each language, a format name passes as it is', (t) => {
  t.is(errorText('files.type_mismatch', { claimed: 'PDF', actual: 'text' }), '文件内容与扩展名不符：名为 PDF，内容却是文本');
  t.is(errorText('files.type_mismatch', { claimed: 'PDF', actual: 'other' }, 'en'), 'The file content does not match its extension: named PDF, but the content is another format');
  t.is(errorText('files.type_mismatch', { claimed: 'TXT', actual: 'DOCX' }, 'en'), 'The file content does not match its extension: named TXT, but the content is DOCX');
});
