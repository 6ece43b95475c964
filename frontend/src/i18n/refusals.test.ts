import test from 'ava';
import i18next from 'i18next';
import { refusalResources, renderRefusal } from './refusals.ts';

test.before(async () => {
  await i18next.init({ resources: { en: { refusals: refusalResources('en') } }, lng: 'en', interpolation: { escapeValue: false } });
});

test('a code is rendered in the reader’s language with its params', (t) => {
  t.is(renderRefusal('engineer.sandbox_time', { seconds: 10 }, 'en'), 'The command ran past its time limit (10 s) and was stopped');
  t.is(renderRefusal('engineer.demo_failed', {}, 'en'), 'The demo stopped on an internal error; please start it again');
});

test('an unknown code, or a known one without a value for each placeholder, is left to the caller’s text', (t) => {
  t.is(renderRefusal('cli.whatever', {}, 'en'), undefined);
  t.is(renderRefusal('engineer.sandbox_time', {}, 'en'), undefined);
  t.is(renderRefusal('engineer.sandbox_refused', { other: 'x' }, 'en'), undefined);
});
