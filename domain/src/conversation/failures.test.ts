import test from 'ava';
import { ModelError } from '@scriptorium/infra/model/port';
import { anyErrorText } from '../protocol/errors.ts';
import { failure, failureItem, failureText } from './failures.ts';

const refused = (providerMessage: string) => new ModelError('refused', `HTTP 400: ${providerMessage}`, { status: 400, providerMessage });

test('a refused request is said to be the provider refusing it, with why, never an unreadable answer', (t) => {
  const window = refused("This model's maximum context length is 32768 tokens. However, you requested 40192 tokens.");
  const cap = refused('Invalid max_tokens value, the valid range of max_tokens is [1, 8192]');
  const other = refused('The model `gpt-9` does not exist');
  t.deepEqual(failure(window), { code: 'agent.model_refused', params: { reason: 'context_window' } });
  t.deepEqual(failure(cap).params, { reason: 'output_cap' });
  t.deepEqual(failure(other).params, { reason: 'other' });

  t.is(failureText(window), '模型服务拒绝了这次请求：提示超出了模型的上下文窗口。模型没有作答，请联系管理员检查模型配置');
  t.is(failureText(cap, 'en'), 'The model service refused the request: the answer length asked for is over the model’s output limit. The model did not answer; please ask an administrator to check the model’s configuration');
  t.regex(failureText(other, 'en'), /refused the request: the service does not accept/);
  for (const error of [window, cap, other]) {
    t.notRegex(failureText(error), /无法解析/);
    t.notRegex(failureText(error, 'en'), /could not be read/);
  }
});

test('the failure item carries the reason as a param each language words, so English never shows a Chinese word', (t) => {
  const item = failureItem(refused('max_tokens is too large: 999993734. This model supports at most 16384 completion tokens'));
  t.deepEqual(item, { error_message: anyErrorText('agent.model_refused', { reason: 'output_cap' }), code: 'agent.model_refused', params: { reason: 'output_cap' } });
  t.false('params' in failureItem(new ModelError('server', 'HTTP 500')));
  t.is(failureItem(new ModelError('bad_response', 'not JSON')).code, 'agent.model_bad_response');
});
