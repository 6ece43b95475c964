import test from 'ava';
import { randomBytes } from 'node:crypto';
import { parseSecretKey, SecretBox, SecretUnreadable } from './box.ts';

test('a sealed secret opens with its key only, and never shows the plain text', (t) => {
  const box = new SecretBox(randomBytes(32));
  const sealed = box.seal('sk-live-1234567890');
  t.false(sealed.includes('sk-live'));
  t.not(box.seal('sk-live-1234567890'), sealed, 'a fresh IV per seal');
  t.is(box.open(sealed), 'sk-live-1234567890');
  t.throws(() => new SecretBox(randomBytes(32)).open(sealed), { instanceOf: SecretUnreadable });
  const [version, iv, tag, body] = sealed.split('.');
  const altered = [version, iv, tag, `${body!.slice(0, -2)}AA`].join('.');
  t.throws(() => box.open(altered), { instanceOf: SecretUnreadable });
  t.throws(() => box.open('sk-live-1234567890'), { instanceOf: SecretUnreadable });
});

test('a key is 32 bytes in hex or base64; anything else is refused', (t) => {
  const key = randomBytes(32);
  t.deepEqual(parseSecretKey(key.toString('hex')), key);
  t.deepEqual(parseSecretKey(key.toString('base64')), key);
  t.deepEqual(parseSecretKey(key.toString('base64url')), key);
  t.is(parseSecretKey(randomBytes(16).toString('hex')), undefined);
  t.is(parseSecretKey(randomBytes(24).toString('base64')), undefined);
  t.is(parseSecretKey('correct horse battery staple correct horse!!'), undefined);
});
