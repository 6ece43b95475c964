import test from 'ava';
import { htmlLang, normaliseLanguage } from './language.ts';

test('only zh and en are accepted, zh is the fallback', (t) => {
  t.is(normaliseLanguage('en'), 'en');
  t.is(normaliseLanguage('zh'), 'zh');
  for (const other of [null, undefined, '', 'EN', 'zh-CN', 'en-US', 'fr', 1]) t.is(normaliseLanguage(other), 'zh');
});

test('the document language follows the interface language', (t) => {
  t.is(htmlLang('zh'), 'zh-CN');
  t.is(htmlLang('en'), 'en');
});
