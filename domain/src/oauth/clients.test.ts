import test from 'ava';
import { CLI_CLIENT, ClientRegistry, redirectAllowed, type OAuthClient } from './clients.ts';

const web: OAuthClient = { id: 'web', name: 'Web', redirectUris: ['https://app.example/cb'], native: false };

test('a native client may use any port of its registered loopback redirects (RFC 8252 §7.3)', (t) => {
  t.true(redirectAllowed(CLI_CLIENT, 'http://127.0.0.1:51234/callback'));
  t.true(redirectAllowed(CLI_CLIENT, 'http://[::1]:8080/callback'));
  t.true(redirectAllowed(CLI_CLIENT, 'http://127.0.0.1/callback'));
  t.false(redirectAllowed(CLI_CLIENT, 'http://localhost:51234/callback'), 'localhost is not a loopback literal');
  t.false(redirectAllowed(CLI_CLIENT, 'http://127.0.0.1:51234/other'));
  t.false(redirectAllowed(CLI_CLIENT, 'https://127.0.0.1:51234/callback'));
  t.false(redirectAllowed(CLI_CLIENT, 'http://127.0.0.1:51234/callback#x'));
  t.false(redirectAllowed(CLI_CLIENT, 'http://evil.example/callback'));
  t.false(redirectAllowed(CLI_CLIENT, 'not a url'));
});

test('other clients match exactly', (t) => {
  t.true(redirectAllowed(web, 'https://app.example/cb'));
  t.false(redirectAllowed(web, 'https://app.example/cb?x=1'));
  t.false(redirectAllowed(web, 'https://app.example:444/cb'));
});

test('an unknown client or redirect is refused, never followed', (t) => {
  const registry = new ClientRegistry([CLI_CLIENT, web]);
  t.is(registry.resolve('web', 'https://app.example/cb').client, web);
  t.is(t.throws(() => registry.resolve('nobody', 'https://app.example/cb'))?.message, '未登记的应用（client_id 无效）');
  t.is(t.throws(() => registry.resolve('web', 'https://evil.example/cb'))?.message, '回调地址未在该应用登记');
});
