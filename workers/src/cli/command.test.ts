import { spawnSync } from 'node:child_process';
import test from 'ava';
import { commandFromArgs, commandLine } from './command.ts';

test('one argument is a command line for the shell; several are a program and its arguments', (t) => {
  t.is(commandFromArgs(['  npm test && echo ok ']), 'npm test && echo ok');
  t.deepEqual(commandFromArgs(['printf', '%s\n', 'hello world']), ['printf', '%s\n', 'hello world']);
  t.deepEqual(commandFromArgs(['echo', '']), ['echo', ''], 'an empty argument is an argument');
  t.is(commandFromArgs([]), null);
  t.is(commandFromArgs(['  ']), null);
  t.is(commandFromArgs(['', 'x']), null, 'there is no program to run');
});

test('a command line is shown as typed, and a program with its arguments quoted only where the shell needs it', (t) => {
  t.is(commandLine('npm test && echo ok'), 'npm test && echo ok');
  t.is(commandLine(['npm', 'test', '--', '--match=*login*']), "npm test -- '--match=*login*'");
  t.is(commandLine(['printf', '%s\n', 'hello world']), "printf '%s\n' 'hello world'");
  t.is(commandLine(['sh', '-c', "echo it's"]), `sh -c 'echo it'\\''s'`);
  t.is(commandLine(['echo', '']), "echo ''");
  t.is(commandLine(['FOO=1', 'x=y']), "'FOO=1' x=y", 'a program named like an assignment is not read as one');
});

test('the shell reads the shown line back as the same program and arguments', (t) => {
  const words = ['hello world', '%s\\n', "it's", '', '$HOME', '*', 'a;b', '`id`', '!', '~', 'tab\there', 'new\nline', '中文', '--flag=value', '"', '\\'];
  const shown = commandLine([process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...words]);
  const { stdout } = spawnSync('sh', ['-c', shown], { encoding: 'utf8' });
  t.deepEqual(JSON.parse(stdout), words);
});
