import test from 'ava';
import { createInstance } from 'i18next';
import { en } from '../i18n/en.ts';
import { refusalResources } from '../i18n/refusals.ts';
import { zh } from '../i18n/zh.ts';
import { isErrorCode } from '@scriptorium/domain/protocol/errors';
import { describeHttpError, describeNoResponse, describeRequestFailure, type RenderCode, type Translate } from './errorCatalogue.ts';

function languagePack(language: 'zh' | 'en'): { translate: Translate; render: RenderCode } {
  const i18n = createInstance();
  void i18n.init({
    resources: { zh: { translation: zh, refusals: refusalResources('zh') }, en: { translation: en, refusals: refusalResources('en') } },
    lng: language,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return {
    translate: (key, params) => i18n.t(key, params as { status: number; message: string }),
    render: (code, params) => (isErrorCode(code) ? i18n.t(`refusals:${code}`, params) : undefined),
  };
}

const zhPack = languagePack('zh');
const enPack = languagePack('en');
const zhT = zhPack.translate;
const enT = enPack.translate;

const describe = (status: number, body: unknown, pack = zhPack) => describeHttpError(status, body, pack.translate, pack.render);

const pick = (status: number, body: unknown, t = zhT) => {
  const { title, userMessage } = describe(status, body, t === enT ? enPack : zhPack);
  return [title, userMessage];
};

test('400, 404 and 500 show the server detail, else the default text', (t) => {
  t.deepEqual(pick(400, { detail: '邀请码无效' }), ['请求错误', '邀请码无效']);
  t.deepEqual(pick(400, {}), ['请求错误', '服务器错误']);
  t.deepEqual(pick(404, undefined), ['资源未找到', '服务器错误']);
  t.deepEqual(pick(500, { detail: '服务器内部错误' }), ['服务器内部错误', '服务器内部错误']);
});

test('401 always reads as an authentication failure, keeping the detail aside', (t) => {
  const error = describe(401, { detail: '用户名或密码错误' });
  t.is(error.title, '未授权');
  t.is(error.userMessage, '认证失败，请重新登录');
  t.is(error.detail, '用户名或密码错误');
});

test('402 shows the server detail, else the quota text', (t) => {
  t.deepEqual(pick(402, { detail: '今日额度已用完' }), ['Token预算不足', '今日额度已用完']);
  t.deepEqual(pick(402, null), ['Token预算不足', 'Token使用额度已用尽，请联系管理员进行充值']);
});

test('403 shows the permission text whatever the server says', (t) => {
  t.deepEqual(pick(403, { detail: 'nope' }), ['禁止访问', '权限不足，无法访问']);
});

test('422 joins every location path and message with semicolons and indexes them by field', (t) => {
  const error = describe(
    422,
    {
      detail: [
        { loc: ['body', 'username'], msg: '用户名需为 3–32 个字符', type: 'invalid_string' },
        { loc: ['body', 'password'], msg: '密码至少 8 个字符', type: 'too_small' },
        { loc: ['body', 'tags', 0], msg: '标签无效', type: 'x' },
      ],
    },
  );
  t.is(error.title, '请求数据验证失败');
  t.is(error.userMessage, 'body.username: 用户名需为 3–32 个字符; body.password: 密码至少 8 个字符; body.tags.0: 标签无效');
  t.deepEqual(error.fieldErrors, { username: '用户名需为 3–32 个字符', password: '密码至少 8 个字符', tags: '标签无效' });
});

test('422 with a plain detail falls back to the default text rule', (t) => {
  t.deepEqual(pick(422, { detail: '格式错误' }), ['请求数据验证失败', '格式错误']);
  t.deepEqual(pick(422, { detail: [] }), ['请求数据验证失败', '服务器错误']);
});

test('other statuses are unknown errors naming the code', (t) => {
  t.deepEqual(pick(409, { detail: '用户名已被使用' }), ['未知错误 409', '用户名已被使用']);
  t.deepEqual(pick(503, undefined), ['未知错误 503', '服务器错误']);
});

test('no response and other failures', (t) => {
  t.is(describeNoResponse(zhT).userMessage, '服务器无响应，请检查网络连接');
  t.is(describeRequestFailure('Unexpected token <', zhT).userMessage, '请求错误：Unexpected token <');
  t.is(describeNoResponse(zhT).status, 0);
});

test('English equivalents', (t) => {
  t.deepEqual(pick(401, {}, enT), ['Unauthorised', 'Authentication failed, please sign in again']);
  t.deepEqual(pick(402, {}, enT), ['Insufficient token budget', 'Your token quota is used up, please contact an administrator to top it up']);
  t.deepEqual(pick(403, {}, enT), ['Forbidden', 'Insufficient permissions to access this']);
  t.deepEqual(pick(404, {}, enT), ['Resource not found', 'Server error']);
  t.deepEqual(pick(418, {}, enT), ['Unknown error 418', 'Server error']);
  t.is(describeNoResponse(enT).userMessage, 'The server did not respond, please check your network connection');
  t.is(describeRequestFailure('boom', enT).userMessage, 'Request error: boom');
});

test('a refusal with a code reads in the user language; the Chinese detail is the catalogue text', (t) => {
  const wrongPassword = { detail: '用户名或密码错误', code: 'auth.invalid_credentials' };
  t.is(describe(401, wrongPassword).detail, '用户名或密码错误');
  t.is(describe(401, wrongPassword, enPack).detail, 'Wrong user name or password');
  t.is(describe(401, wrongPassword, enPack).code, 'auth.invalid_credentials');
  const full = { detail: '笔记最多 500 篇，请先删除不需要的笔记', code: 'notes.too_many', params: { max: 500 } };
  t.deepEqual(pick(409, full, enT), ['Unknown error 409', 'You can have at most 500 notes; please delete some first']);
  t.deepEqual(pick(409, full), ['未知错误 409', '笔记最多 500 篇，请先删除不需要的笔记']);
});

test('an unknown code falls back to the server detail', (t) => {
  t.deepEqual(pick(409, { detail: '新的拒绝', code: 'future.refusal' }, enT), ['Unknown error 409', '新的拒绝']);
});

test('422 issues translate by code and params, and keep the server text for an unknown code', (t) => {
  const body = {
    detail: [
      { loc: ['body', 'title'], msg: '笔记名称最多 200 个字符', type: 'too_big', code: 'notes.name_too_long', params: { max: 200 } },
      { loc: ['body', 'password'], msg: '至少 8 个字符', type: 'too_small', code: 'validation.too_small_string', params: { min: 8 } },
      { loc: ['body', 'x'], msg: '旧服务器的文字', type: 'custom', code: 'future.code' },
    ],
    code: 'validation.failed',
  };
  const english = describe(422, body, enPack);
  t.deepEqual(english.fieldErrors, { title: 'A note name can be at most 200 characters', password: 'Must be at least 8 characters', x: '旧服务器的文字' });
  t.is(english.userMessage, 'body.title: A note name can be at most 200 characters; body.password: Must be at least 8 characters; body.x: 旧服务器的文字');
  t.deepEqual(describe(422, body).fieldErrors, { title: '笔记名称最多 200 个字符', password: '至少 8 个字符', x: '旧服务器的文字' });
});
