import test from 'ava';
import { FetchError } from './errors.ts';
import { isBlockedAddress, parseAllowEntry, SsrfGuard, type Resolver } from './ssrf.ts';

test('loopback, private, link-local, metadata, CGNAT, multicast and unspecified addresses are blocked', (t) => {
  for (const address of [
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
    '0.0.0.0', '0.1.2.3', '100.64.0.1', '100.127.255.255', '224.0.0.1', '239.255.255.250', '255.255.255.255',
    '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'febf::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
  ]) {
    t.true(isBlockedAddress(address), address);
  }
});

test('public addresses pass, including neighbours of the blocked ranges', (t) => {
  for (const address of ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    t.false(isBlockedAddress(address), address);
  }
});

test('a string that is not an IP address counts as blocked', (t) => {
  t.true(isBlockedAddress('localhost'));
});

const resolver =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function reason(guard: SsrfGuard, url: string): Promise<string | undefined> {
  try {
    await guard.checkUrl(new URL(url));
    return undefined;
  } catch (error) {
    return error instanceof FetchError ? error.reason : `unexpected ${String(error)}`;
  }
}

test('checkUrl refuses blocked IP literals in every spelling the URL parser accepts', async (t) => {
  const guard = new SsrfGuard({ resolve: resolver({}) });
  for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]/', 'https://169.254.169.254/latest/meta-data/', 'http://0/']) {
    t.is(await reason(guard, url), 'blocked_address', url);
  }
  t.is(await reason(guard, 'http://93.184.216.34/'), undefined);
});

test('checkUrl refuses a name when any of its addresses is blocked', async (t) => {
  const guard = new SsrfGuard({ resolve: resolver({ 'public.test': ['93.184.216.34', '2606:2800::1'], 'mixed.test': ['93.184.216.34', '10.0.0.5'], 'v6.test': ['fe80::1'] }) });
  t.is(await reason(guard, 'https://public.test/page'), undefined);
  t.is(await reason(guard, 'https://mixed.test/page'), 'blocked_address');
  t.is(await reason(guard, 'http://v6.test:8443/'), 'blocked_address');
  t.is(await reason(guard, 'http://unknown.test/'), 'network');
});

test('only http and https are read', async (t) => {
  const guard = new SsrfGuard({ resolve: resolver({ 'public.test': ['93.184.216.34'] }) });
  for (const url of ['file:///etc/passwd', 'ftp://public.test/', 'gopher://public.test/', 'data:text/html,hi']) {
    t.is(await reason(guard, url), 'bad_url', url);
  }
});

test('allowHosts lets the named host through and nothing else, whatever it resolves to', async (t) => {
  const guard = new SsrfGuard({ allowHosts: ['Intranet.Test.'], resolve: resolver({ 'intranet.test': ['10.0.0.8'], 'other.test': ['10.0.0.8'] }) });
  t.is(await reason(guard, 'http://intranet.test/'), undefined);
  t.is(await reason(guard, 'http://INTRANET.test./'), undefined);
  t.is(await reason(guard, 'http://other.test/'), 'blocked_address');
  t.is(await reason(guard, 'http://10.0.0.8/'), 'blocked_address');
});

test('lookup answers with checked addresses in both callback styles and refuses blocked ones', async (t) => {
  const guard = new SsrfGuard({ resolve: resolver({ 'public.test': ['93.184.216.34', '2606:2800::1'], 'inside.test': ['192.168.0.2'] }) });
  const one = await new Promise<unknown[]>((resolve) => guard.lookup('public.test', { family: 6 }, (...args) => resolve(args)));
  t.deepEqual(one, [null, '2606:2800::1', 6]);
  const all = await new Promise<unknown[]>((resolve) => guard.lookup('public.test', { all: true }, (...args) => resolve(args)));
  t.deepEqual(all[1], [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800::1', family: 6 },
  ]);
  const [error] = await new Promise<unknown[]>((resolve) => guard.lookup('inside.test', { all: true }, (...args) => resolve(args)));
  t.true(error instanceof FetchError && error.reason === 'blocked_address');
});

test('an allowed host:port lets that port through and no other, for names and literals alike', async (t) => {
  const guard = new SsrfGuard({ allowHosts: ['wiki.test:8080', '127.0.0.1:9000', '[::1]:9001'], resolve: resolver({ 'wiki.test': ['10.0.0.9'] }) });
  t.is(await reason(guard, 'http://wiki.test:8080/page'), undefined);
  t.is(await reason(guard, 'http://wiki.test/page'), 'blocked_address');
  t.is(await reason(guard, 'https://wiki.test:8443/'), 'blocked_address');
  t.is(await reason(guard, 'http://127.0.0.1:9000/'), undefined);
  t.is(await reason(guard, 'http://127.0.0.1:9002/'), 'blocked_address');
  t.is(await reason(guard, 'http://[::1]:9001/'), undefined);
  t.is(await reason(guard, 'http://[::1]:9000/'), 'blocked_address');
});

test('an allowed network lets its addresses through, as literals and as DNS answers, and nothing beside it', async (t) => {
  const guard = new SsrfGuard({ allowHosts: ['10.20.0.0/16', 'fd00:1::/32'], resolve: resolver({ 'wiki.corp': ['10.20.3.4'], 'db.corp': ['10.21.0.1'], 'v6.corp': ['fd00:1::5'] }) });
  t.is(await reason(guard, 'http://10.20.255.1/'), undefined);
  t.is(await reason(guard, 'http://10.21.0.1/'), 'blocked_address');
  t.is(await reason(guard, 'http://wiki.corp/'), undefined);
  t.is(await reason(guard, 'http://db.corp/'), 'blocked_address');
  t.is(await reason(guard, 'http://v6.corp/'), undefined);
  t.is(await reason(guard, 'http://169.254.169.254/'), 'blocked_address');
  const [error, address] = await new Promise<unknown[]>((resolve) => guard.lookup('wiki.corp', {}, (...args) => resolve(args)));
  t.is(error, null);
  t.is(address, '10.20.3.4');
});

test('allow entries parse as host, host:port or network, and anything else is refused with the entry named', (t) => {
  t.deepEqual(parseAllowEntry('Wiki.Corp'), { kind: 'host', host: 'wiki.corp' });
  t.deepEqual(parseAllowEntry('localhost:3000'), { kind: 'host', host: 'localhost', port: 3000 });
  t.deepEqual(parseAllowEntry('[fd00::1]:80'), { kind: 'host', host: 'fd00::1', port: 80 });
  t.deepEqual(parseAllowEntry('fd00::1'), { kind: 'host', host: 'fd00::1' });
  t.deepEqual(parseAllowEntry('192.168.1.0/24'), { kind: 'network', address: '192.168.1.0', prefix: 24, family: 'ipv4' });
  t.deepEqual(parseAllowEntry('fd00::/8'), { kind: 'network', address: 'fd00::', prefix: 8, family: 'ipv6' });
  for (const bad of ['http://wiki', 'wiki:0', 'wiki:70000', '10.0.0.0/33', 'wiki.corp/8', 'a b', '[wiki]:80', 'wiki:', 'fd00::/129']) {
    t.throws(() => parseAllowEntry(bad), { message: new RegExp(bad.replace(/[[\]/.:]/g, '\\$&').split(' ')[0]!) }, bad);
  }
});
