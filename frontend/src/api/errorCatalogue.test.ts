import test from 'ava';
import { createInstance } from 'i18next';
import { en } from '../i18n/en.ts';
import { zh } from '../i18n/zh.ts';
import { describeHttpError, describeNoResponse, describeRequestFailure, type Translate } from './errorCatalogue.ts';

function translator(language: 'zh' | 'en'): Translate {
  const i18n = createInstance();
  void i18n.init({ resources: { zh: { translation: zh }, en: { translation: en } }, lng: language, initAsync: false, interpolation: { escapeValue: false } });
  return (key, params) => i18n.t(key, params as { status: number; message: string });
}

const zhT = translator('zh');
const enT = translator('en');

const pick = (status: number, body: unknown, t = zhT) => {
  const { title, userMessage } = describeHttpError(status, body, t);
  return [title, userMessage];
};

test('400, 404 and 500 show the server detail, else the default text', (t) => {
  t.deepEqual(pick(400, { detail: '邀请码无效' }), ['请求错误', '邀请码无效']);
  t.deepEqual(pick(400, {}), ['请求错误', '服务器错误']);
  t.deepEqual(pick(404, undefined), ['资源未找到', '服务器错误']);
  t.deepEqual(pick(500, { detail: '服务器内部错误' }), ['服务器内部错误', '服务器内部错误']);
});

test('401 always reads as an authentication failure, keeping the detail aside', (t) => {
  const error = describeHttpError(401, { detail: '用户名或密码错误' }, zhT);
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
  const error = describeHttpError(
    422,
    {
      detail: [
        { loc: ['body', 'username'], msg: '用户名需为 3–32 个字符', type: 'invalid_string' },
        { loc: ['body', 'password'], msg: '密码至少 8 个字符', type: 'too_small' },
        { loc: ['body', 'tags', 0], msg: '标签无效', type: 'x' },
      ],
    },
    zhT,
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
