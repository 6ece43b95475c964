import test from 'ava';
import { htmlLang, normaliseLanguage } from './language.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

test('only zh and en are accepted, zh is the fallback', (t) => {
  t.is(normaliseLanguage('en'), 'en');
  t.is(normaliseLanguage('zh'), 'zh');
  for (const other of [null, undefined, '', 'EN', 'zh-CN', 'en-US', 'fr', 1]) t.is(normaliseLanguage(other), 'zh');
});

test('the document language follows the interface language', (t) => {
  t.is(htmlLang('zh'), 'zh-CN');
  t.is(htmlLang('en'), 'en');
});

test('en has every key zh has and no others', (t) => {
  const keys = (value: object, prefix = ''): string[] =>
    Object.entries(value).flatMap(([key, child]) => (typeof child === 'string' ? [prefix + key] : keys(child as object, `${prefix}${key}.`)));
  t.deepEqual(keys(en).sort(), keys(zh).sort());
});
