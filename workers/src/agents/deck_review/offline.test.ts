import test from 'ava';
import type { SlideContent } from '@scriptorium/domain/protocol/deckReview';
import { deckContext, offlineSlideReview, overallReview, repeatedWords, titleStyle, wordCount } from './offline.ts';

const slide = (n: number, title: string | null, paragraphs: string[], notes = '讲解要点'): SlideContent => ({ n, title, paragraphs, notes, images: 0 });

test('words are counted across scripts, so a Chinese and an English slide compare', (t) => {
  t.is(wordCount('Revenue grew 18% this quarter'), 5);
  t.is(wordCount('收入同比增长'), 3);
  t.is(wordCount(''), 0);
});

test('repeated words and title styles are recognised', (t) => {
  t.deepEqual(repeatedWords('the the plan is stable'), ['the']);
  t.deepEqual(repeatedWords('份额稳定稳定在 12%'), ['稳定']);
  t.deepEqual(repeatedWords('a clean sentence'), []);
  t.is(titleStyle('Next Steps For Growth'), 'title');
  t.is(titleStyle('Next steps for growth'), 'sentence');
  t.is(titleStyle('季度复盘'), 'other');
});

test('a clean slide scores full marks and needs no rewrite', (t) => {
  const slides = [slide(1, '季度复盘', ['收入同比增长 18%', '新客户 42 家'])];
  const review = offlineSlideReview(slides[0]!, deckContext(slides), 'zh');
  t.is(review.score, 100);
  t.is(review.rewrite, '');
  t.deepEqual([review.clarity.rating, review.structure.rating, review.consistency.rating, review.spelling.rating], ['good', 'good', 'good', 'good']);
});

test('each rule finds its fault and the rewrite fixes what rules can fix', (t) => {
  const slides = [
    slide(1, '季度复盘', ['收入增长']),
    slide(2, '市场分析。', ['竞品 A 降价', '竞品 A 降价', '份额稳定稳定在 12%'], ''),
    slide(3, null, ['没有标题的一页']),
    slide(4, '季度复盘', ['收入增长']),
    slide(5, '计划', ['字'.repeat(300)]),
  ];
  const context = deckContext(slides);
  const two = offlineSlideReview(slides[1]!, context, 'zh');
  t.true(two.consistency.points.some((point) => point.includes('以标点结尾')));
  t.true(two.consistency.points.some((point) => point.includes('出现了不止一次')));
  t.deepEqual(two.spelling.points, ['疑似重复输入：“稳定”']);
  t.true(two.structure.points.includes('没有演讲者备注，讲解时容易遗漏要点'));
  t.is(two.rewrite, '市场分析\n- 竞品 A 降价\n- 份额稳定在 12%');
  const three = offlineSlideReview(slides[2]!, context, 'zh');
  t.is(three.structure.rating, 'poor');
  t.true(three.rewrite.startsWith('[补充标题]'));
  const four = offlineSlideReview(slides[3]!, context, 'zh');
  t.deepEqual(four.consistency.points, ['与第 1 页内容相同，重复的幻灯片']);
  const five = offlineSlideReview(slides[4]!, context, 'zh');
  t.is(five.clarity.rating, 'poor');
  t.true(five.score < 80);
});

test('English titles out of step with the deck’s case are pointed out, in English', (t) => {
  const slides = [slide(1, 'Market Share Is Stable', ['x']), slide(2, 'Pricing Needs Work', ['y']), slide(3, 'Next steps for growth', ['z'])];
  const review = offlineSlideReview(slides[2]!, deckContext(slides), 'en');
  t.deepEqual(review.consistency.points, ['Title case differs from most slides (they use Title Case)']);
});

test('the overall score is the reviewed slides’ mean, with the slides each aspect needs work on', (t) => {
  const slides = [slide(1, 'A', ['x']), slide(2, null, ['y']), slide(3, 'C', ['z'])];
  const context = deckContext(slides);
  const outcomes = {
    1: { status: 'reviewed' as const, review: offlineSlideReview(slides[0]!, context, 'en') },
    2: { status: 'reviewed' as const, review: offlineSlideReview(slides[1]!, context, 'en') },
    3: { status: 'failed' as const, reason: 'no answer' },
  };
  const overall = overallReview(slides, outcomes, 'en');
  t.is(overall.score, Math.round((100 + 82) / 2));
  t.deepEqual(overall.reasons, ['2 slides scored 91 on average', 'Structure needs work on slide 2', 'Slide 3 could not be reviewed and is not scored']);
});
