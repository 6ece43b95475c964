import test from 'ava';
import { groupOf, quotaView, refreshText, usagePercent } from './quota.ts';

test('user group labels: the four levels, anything else standard', (t) => {
  t.is(groupOf('basic'), 'basic');
  t.is(groupOf('premium'), 'premium');
  t.is(groupOf('vip'), 'vip');
  t.is(groupOf('admin'), 'admin');
  t.is(groupOf('gold'), 'standard');
  t.is(groupOf(''), 'standard');
  t.is(groupOf(undefined), 'standard');
  t.is(groupOf('toString'), 'standard');
});

test('usage percent is capped at 100 and safe at a zero limit', (t) => {
  t.is(usagePercent(25, 100), 25);
  t.is(usagePercent(250, 100), 100);
  t.is(usagePercent(0, 0), 0);
  t.is(usagePercent(3, 0), 100);
  t.is(usagePercent(-1, 100), 0);
});

test('extra budget and total show only when extra budget is above 0', (t) => {
  const base = { token_level_limit: 100, today_usage: 40, extra_budget: 0, total_available: 60 };
  t.false(quotaView(base).showExtra);
  const extra = quotaView({ ...base, extra_budget: 20, total_available: 80 });
  t.true(extra.showExtra);
  t.deepEqual(extra, { dailyLimit: 100, todayUsage: 40, extraBudget: 20, totalAvailable: 80, percent: 40, showExtra: true });
});

test('the daily reset reads as the quota’s day wherever the reader is; a refresh at another time as a moment', (t) => {
  const shanghaiMidnight = new Date('2026-02-28T16:00:00.000Z');
  t.is(refreshText(shanghaiMidnight, 'Asia/Shanghai', 'en-US'), 'Mar 1, 2026', 'not Feb 28, 4:00 PM for a reader in UTC');
  t.is(refreshText(shanghaiMidnight, 'Asia/Shanghai', 'zh-CN'), '2026年3月1日');
  t.regex(refreshText(new Date('2026-03-01T03:00:00.000Z'), 'Asia/Shanghai', 'en-US'), /2026, \d{1,2}:00/);
});
