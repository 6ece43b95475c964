import test from 'ava';
import { errorMessage } from './errors.ts';

test('field message first, then detail, then the catalogue text, then the plain message', (t) => {
  t.is(errorMessage({ fieldErrors: { url: '请输入以 http:// 或 https:// 开头的网页地址' }, detail: undefined, userMessage: 'body.url: …' }), '请输入以 http:// 或 https:// 开头的网页地址');
  t.is(errorMessage({ fieldErrors: {}, detail: '认知不存在', userMessage: '认知不存在' }), '认知不存在');
  t.is(errorMessage({ fieldErrors: {}, userMessage: '网络连接失败' }), '网络连接失败');
  t.is(errorMessage(new Error('boom')), 'boom');
  t.is(errorMessage(null), null);
  t.is(errorMessage('text'), null);
});
