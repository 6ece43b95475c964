import test from 'ava';
import { checkOf, UNVERIFIED_MARK } from './citationChecks.ts';

const content = '# 报告\n\n甲说了一件事[[1]](https://a/)。乙说了另一件事[[2]](https://b/)⚠〔待核实：来源 2 中没有“42”〕。丙又说[[1]](https://a/)。';
const checks = [
  { n: 1, offset: content.indexOf('甲'), verdict: 'supported' as const, action: 'kept' as const, excerpt: '甲' },
  { n: 2, offset: content.indexOf('乙'), verdict: 'unsupported' as const, action: 'marked' as const, excerpt: '乙', missing: ['42'] },
  { n: 1, offset: content.indexOf('丙'), verdict: 'weak' as const, action: 'kept' as const, excerpt: '丙' },
];

test("a citation link's check is the one of its source whose sentence it closes", (t) => {
  t.is(checkOf(content, checks, 1, 0)?.excerpt, '甲');
  t.is(checkOf(content, checks, 1, 1)?.excerpt, '丙');
  t.is(checkOf(content, checks, 2, 0)?.verdict, 'unsupported');
  t.is(checkOf(content, checks, 1, 2), null);
  t.is(checkOf(content, [], 1, 0), null);
});

test('the unverified mark is found in either language', (t) => {
  t.deepEqual('a⚠〔待核实：来源 2 中没有“42”〕b⚠ (unverified: source 3 does not mention "42")'.match(UNVERIFIED_MARK)?.length, 2);
});
