import test from 'ava';
import type { DeckReviewDto } from '../protocol/deckReview.ts';
import { reviewMarkdown } from './report.ts';

const review: DeckReviewDto = {
  review_id: 'r1',
  filename: 'q1.pptx',
  status: 'completed',
  engine: 'offline',
  language: 'zh',
  slide_count: 2,
  reviewed_count: 1,
  failed_count: 1,
  score: 82,
  error: null,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
  reasons: ['1 页幻灯片平均得分 82'],
  slides: [
    {
      n: 1,
      title: '# 季度复盘',
      paragraphs: ['收入 *增长*'],
      notes: '先讲结论',
      images: 1,
      status: 'reviewed',
      failure: null,
      review: {
        score: 82,
        clarity: { rating: 'good', points: [] },
        structure: { rating: 'fair', points: ['没有演讲者备注'] },
        consistency: { rating: 'good', points: [] },
        spelling: { rating: 'good', points: [] },
        rewrite: '季度复盘\n- 收入增长',
      },
    },
    { n: 2, title: null, paragraphs: [], notes: '', images: 0, status: 'failed', failure: '模型调用失败', review: null },
  ],
};

test('the Markdown export names the engine, the score and reasons, and every slide with its review', (t) => {
  const markdown = reviewMarkdown(review);
  t.true(markdown.startsWith('# PPT 评审报告: q1.pptx\n\n> 评审：离线引擎（按规则检查，未使用模型）'));
  t.true(markdown.includes('**总分: 82 / 100**'));
  t.true(markdown.includes('## 第 1 页 · \\# 季度复盘 (82)'), 'slide text is escaped, not read as Markdown');
  t.true(markdown.includes('- 收入 \\*增长\\*'));
  t.true(markdown.includes('**结构** (一般)\n\n- 没有演讲者备注'));
  t.true(markdown.includes('**建议改写**\n\n> 季度复盘\n> - 收入增长'));
  t.true(markdown.includes('## 第 2 页 · （无标题）\n\n图片: 0 · 演讲者备注: 无\n\n*未能评审: 模型调用失败*'));
});

test('an English review is exported in English', (t) => {
  const markdown = reviewMarkdown({ ...review, language: 'en', engine: 'model' });
  t.true(markdown.startsWith('# Presentation review: q1.pptx\n\n> Reviewed by: the model'));
  t.true(markdown.includes('**Overall score: 82 / 100**'));
});
