import test from 'ava';
import { cliLanguage, cliMessages, withoutLangFlag } from './messages.ts';

test('the CLI speaks English for an English locale or --lang en, Chinese otherwise', (t) => {
  t.is(cliLanguage(undefined, { LANG: 'en_US.UTF-8' }), 'en');
  t.is(cliLanguage(undefined, { LANG: 'en' }), 'en');
  t.is(cliLanguage(undefined, { LANG: 'zh_CN.UTF-8' }), 'zh');
  t.is(cliLanguage(undefined, { LANG: 'C.UTF-8' }), 'zh', 'no language named: the product’s own');
  t.is(cliLanguage(undefined, {}), 'zh');
  t.is(cliLanguage(undefined, { LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }), 'zh', 'LC_ALL before LANG');
  t.is(cliLanguage(undefined, { LC_ALL: '', LC_MESSAGES: 'en_GB.UTF-8', LANG: 'zh_CN.UTF-8' }), 'en');
  t.is(cliLanguage('zh', { LANG: 'en_US.UTF-8' }), 'zh', '--lang wins');
  t.is(cliLanguage('fr', { LANG: 'en_US.UTF-8' }), 'en', 'an unknown --lang is ignored');
});

test('--lang is taken out of the arguments before the command sees them, never after --', (t) => {
  t.deepEqual(withoutLangFlag(['--lang', 'en', 'whoami']), { flag: 'en', rest: ['whoami'] });
  t.deepEqual(withoutLangFlag(['chat', '--lang=zh', '--project', 'x']), { flag: 'zh', rest: ['chat', '--project', 'x'] });
  t.deepEqual(withoutLangFlag(['run', '--', 'tool', '--lang', 'en']), { flag: undefined, rest: ['run', '--', 'tool', '--lang', 'en'] });
});

test('both languages say the same things', (t) => {
  t.deepEqual(Object.keys(cliMessages('en')).sort(), Object.keys(cliMessages('zh')).sort());
  t.regex(cliMessages('en').help, /command-line assistant/);
});
