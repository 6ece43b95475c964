import { randomUUID } from 'node:crypto';
import test from 'ava';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { MemoryPresenceBus, MemoryPresenceChannel } from '@scriptorium/infra/presence/memory';
import type { PresenceAnnouncement, PresenceChannel } from '@scriptorium/infra/presence/port';
import { RedisPresenceChannel } from '@scriptorium/infra/presence/redis';
import { redisAnswers, redisUrl } from './redis.ts';

const haveRedis = await redisAnswers(redisUrl);

/** What a channel hears, and a wait for the first announcement matching. */
function heard(channel: PresenceChannel) {
  const announcements: PresenceAnnouncement[] = [];
  const waiting = new Set<() => void>();
  channel.listen((announcement) => {
    announcements.push(announcement);
    for (const check of waiting) check();
  });
  const next = (predicate: (announcement: PresenceAnnouncement) => boolean, timeoutMs = 5_000) =>
    new Promise<PresenceAnnouncement>((resolve, reject) => {
      const check = () => {
        const found = announcements.find(predicate);
        if (!found) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`no matching announcement within ${timeoutMs} ms; heard ${JSON.stringify(announcements)}`));
      }, timeoutMs);
      waiting.add(check);
      check();
    });
  return { announcements, next };
}

/** `open()` gives channels that hear each other, as the api processes of one deployment. */
function presenceChannelContract(name: string, open: () => { channels: [PresenceChannel, PresenceChannel]; close(): Promise<void> }) {
  test(`${name}: what one process says, the other hears with its origin and topic; the sayer does not hear itself`, async (t) => {
    const { channels, close } = open();
    t.teardown(close);
    const [a, b] = channels;
    t.not(a.origin, b.origin);
    const onA = heard(a);
    const onB = heard(b);
    const peers = [{ session: 's1', user_id: 'u1', name: '林', colour: 3, access: 'edit', version: 4, selection: { anchor: 1, head: 2 } }];
    // A subscription may still be on its way: say it until it is heard, as the gateway's beat does.
    const saying = setInterval(() => void a.publish('doc-1', peers).catch(() => undefined), 100);
    try {
      const announcement = await onB.next((item) => item.topic === 'doc-1');
      t.deepEqual(announcement, { origin: a.origin, topic: 'doc-1', peers });
    } finally {
      clearInterval(saying);
    }
    await b.publish('doc-1', []);
    await onA.next((item) => item.origin === b.origin && item.peers.length === 0);
    t.false(onA.announcements.some((item) => item.origin === a.origin), 'a process never hears its own announcements');
    t.false(onB.announcements.some((item) => item.origin === b.origin));
  });

  test(`${name}: a listener that stopped hears nothing more`, async (t) => {
    const { channels, close } = open();
    t.teardown(close);
    const [a, b] = channels;
    const onB = heard(b);
    const late: PresenceAnnouncement[] = [];
    const stop = b.listen((announcement) => late.push(announcement));
    const saying = setInterval(() => void a.publish('doc-2', [{ session: 'x' }]).catch(() => undefined), 100);
    try {
      await onB.next((item) => item.topic === 'doc-2');
    } finally {
      clearInterval(saying);
    }
    stop();
    const before = late.length;
    await a.publish('doc-2', []);
    await onB.next((item) => item.topic === 'doc-2' && item.peers.length === 0);
    t.is(late.length, before);
  });
}

presenceChannelContract('memory', () => {
  const bus = new MemoryPresenceBus();
  const channels: [PresenceChannel, PresenceChannel] = [new MemoryPresenceChannel(bus), new MemoryPresenceChannel(bus)];
  return { channels, close: async () => void (await Promise.all(channels.map((channel) => channel.close()))) };
});

test('memory: a channel alone on its bus (one api process) reaches nobody, and a closed one leaves its bus', async (t) => {
  const alone = new MemoryPresenceChannel();
  await alone.publish('doc', [{ session: 's' }]);
  const bus = new MemoryPresenceBus();
  const [a, b] = [new MemoryPresenceChannel(bus), new MemoryPresenceChannel(bus)];
  await b.close();
  t.deepEqual([...bus.channels], [a]);
  await Promise.all([alone.close(), a.close()]);
});

if (haveRedis) {
  /** A channel per test: tests running at once never hear each other. */
  const channelName = () => `scriptorium-test-presence-${randomUUID()}`;
  const silent = pino({ level: 'silent' });

  presenceChannelContract('Redis', () => {
    const name = channelName();
    const channels: [PresenceChannel, PresenceChannel] = [new RedisPresenceChannel(redisUrl, silent, name), new RedisPresenceChannel(redisUrl, silent, name)];
    return { channels, close: async () => void (await Promise.all(channels.map((channel) => channel.close()))) };
  });

  test('Redis: what is not an announcement is dropped and logged; the channel keeps working', async (t) => {
    const name = channelName();
    const warnings: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const [a, b] = [new RedisPresenceChannel(redisUrl, silent, name), new RedisPresenceChannel(redisUrl, log, name)];
    const raw = new Redis(redisUrl);
    t.teardown(async () => {
      await Promise.all([a.close(), b.close(), raw.quit()]);
    });
    const onB = heard(b);
    const saying = setInterval(() => void a.publish('ready', []).catch(() => undefined), 100);
    try {
      await onB.next((item) => item.topic === 'ready');
    } finally {
      clearInterval(saying);
    }
    await raw.publish(name, 'not json {');
    await raw.publish(name, JSON.stringify({ origin: 'elsewhere', topic: 'doc', peers: 'everyone' }));
    await raw.publish(name, JSON.stringify({ origin: 'elsewhere', topic: 'doc', peers: [], extra: true }));
    await raw.publish(name, JSON.stringify({ origin: '', topic: 'doc', peers: [] }));
    await a.publish('after', [{ session: 'ok' }]);
    const after = await onB.next((item) => item.topic === 'after');
    t.deepEqual(after.peers, [{ session: 'ok' }]);
    t.false(onB.announcements.some((item) => item.topic === 'doc'), 'none of the bad messages reached the listener');
    t.is(warnings.length, 4);
    t.true(warnings.every((line) => (line as { msg: string }).msg.startsWith('presence announcement dropped')));
  });

  test('Redis: a channel that never listened or published closes without having connected; first publishes at once share one connection; a publish after close fails rather than hangs', async (t) => {
    const unused = new RedisPresenceChannel(redisUrl, silent, channelName());
    await unused.close();
    const closed = new RedisPresenceChannel(redisUrl, silent, channelName());
    await Promise.all([closed.publish('doc', []), closed.publish('doc', [])]);
    await closed.close();
    await t.throwsAsync(closed.publish('doc', []));
  });
} else {
  console.log(`presence channel contract: Redis suite skipped (no Redis at ${redisUrl})`);
  test.skip('Redis: PresenceChannel contract (no Redis)', () => {});
}
