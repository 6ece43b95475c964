import { PassThrough } from 'node:stream';
import test from 'ava';
import { Terminal } from './terminal.ts';

function streams(tty: boolean) {
  const input = Object.assign(new PassThrough(), { isTTY: tty });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk) => (shown += chunk));
  return { input, output, shown: () => shown };
}

test('piped input answers each question with the next line, then null once it ends', async (t) => {
  const { input, output, shown } = streams(false);
  const terminal = new Terminal(input, output);
  input.end('alice\nPassw0rd!23\n');
  t.is(await terminal.ask('用户名: '), 'alice');
  t.is(await terminal.ask('密码: ', true), 'Passw0rd!23');
  t.is(await terminal.ask('还有吗: '), null);
  t.is(shown(), '用户名: \n密码: \n还有吗: \n');
});

test('on a terminal a secret is not drawn, not even when an edit redraws the line', async (t) => {
  const { input, output, shown } = streams(true);
  const terminal = new Terminal(input, output);
  const name = terminal.ask('用户名: ');
  input.write('alice\r');
  t.is(await name, 'alice');
  const password = terminal.ask('密码: ', true);
  input.write('Passw0rX\x7fd\r');
  t.is(await password, 'Passw0rd');
  terminal.close();
  t.regex(shown(), /alice/, 'an ordinary answer is drawn as it is typed');
  const afterQuestion = shown().slice(shown().lastIndexOf('密码: '));
  t.notRegex(afterQuestion, /Pass|w0r/, 'no part of the password is drawn');
  t.true(shown().endsWith('\n'), 'the hidden answer still ends its line');
});
