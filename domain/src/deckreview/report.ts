import { REVIEW_ASPECTS, type DeckReviewDto, type Rating, type ReviewAspect, type ReviewLanguage } from '../protocol/deckReview.ts';

const LABELS: Record<ReviewLanguage, { title: string; engine: Record<'model' | 'offline', string>; file: string; score: string; reasons: string; slide: (n: number) => string; untitled: string; text: string; notes: string; images: string; rewrite: string; failed: string; pending: string; status: Record<'uploaded' | 'reviewing' | 'completed' | 'failed', string>; aspects: Record<ReviewAspect, string>; ratings: Record<Rating, string>; none: string }> = {
  zh: {
    title: 'PPT 评审报告',
    engine: { model: '评审：模型', offline: '评审：离线引擎（按规则检查，未使用模型）' },
    file: '文件',
    score: '总分',
    reasons: '评分理由',
    slide: (n) => `第 ${n} 页`,
    untitled: '（无标题）',
    text: '正文',
    notes: '演讲者备注',
    images: '图片',
    rewrite: '建议改写',
    failed: '未能评审',
    pending: '尚未评审',
    status: { uploaded: '已上传', reviewing: '评审中', completed: '已完成', failed: '失败' },
    aspects: { clarity: '清晰度', structure: '结构', consistency: '一致性', spelling: '拼写' },
    ratings: { good: '良好', fair: '一般', poor: '较差' },
    none: '无',
  },
  en: {
    title: 'Presentation review',
    engine: { model: 'Reviewed by: the model', offline: 'Reviewed by: the offline engine (rule-based checks, no model)' },
    file: 'File',
    score: 'Overall score',
    reasons: 'Why',
    slide: (n) => `Slide ${n}`,
    untitled: '(no title)',
    text: 'Text',
    notes: 'Speaker notes',
    images: 'Images',
    rewrite: 'Suggested rewrite',
    failed: 'Not reviewed',
    pending: 'Not reviewed yet',
    status: { uploaded: 'Uploaded', reviewing: 'Reviewing', completed: 'Completed', failed: 'Failed' },
    aspects: { clarity: 'Clarity', structure: 'Structure', consistency: 'Consistency', spelling: 'Spelling' },
    ratings: { good: 'good', fair: 'fair', poor: 'poor' },
    none: 'none',
  },
};

/** Markdown's own characters in text taken from a slide, so a slide's "# 1" stays text. */
const escape = (text: string) => text.replace(/([\\`*_[\]#<>|])/g, '\\$1');

/**
 * The review as a Markdown document in the review's language (the PDF export is set from the same
 * text): the engine that reviewed it, the score and its reasons, then every slide with its content,
 * the four aspects and the suggested rewrite.
 */
export function reviewMarkdown(review: DeckReviewDto): string {
  const label = LABELS[review.language];
  const lines: string[] = [`# ${label.title}: ${escape(review.filename)}`, ''];
  if (review.engine) lines.push(`> ${label.engine[review.engine]}`, '');
  lines.push(`- ${label.file}: ${escape(review.filename)}`, `- ${label.status[review.status]}`);
  if (review.score !== null) lines.push(`- **${label.score}: ${review.score} / 100**`);
  if (review.error) lines.push(`- ${escape(review.error.detail)}`);
  lines.push('');
  if (review.reasons.length > 0) {
    lines.push(`## ${label.reasons}`, '', ...review.reasons.map((reason) => `- ${escape(reason)}`), '');
  }
  for (const slide of review.slides) {
    const heading = `${label.slide(slide.n)} · ${escape(slide.title ?? label.untitled)}`;
    lines.push(`## ${heading}${slide.review ? ` (${slide.review.score})` : ''}`, '');
    if (slide.paragraphs.length > 0) lines.push(`**${label.text}**`, '', ...slide.paragraphs.map((paragraph) => `- ${escape(paragraph)}`), '');
    lines.push(`${label.images}: ${slide.images} · ${label.notes}: ${slide.notes ? escape(slide.notes.replace(/\n/g, ' ')) : label.none}`, '');
    if (slide.review) {
      for (const aspect of REVIEW_ASPECTS) {
        const { rating, points } = slide.review[aspect];
        lines.push(`**${label.aspects[aspect]}** (${label.ratings[rating]})`, '');
        if (points.length > 0) lines.push(...points.map((point) => `- ${escape(point)}`), '');
      }
      if (slide.review.rewrite) lines.push(`**${label.rewrite}**`, '', ...slide.review.rewrite.split('\n').map((line) => `> ${escape(line)}`), '');
    } else {
      lines.push(`*${slide.failure ? `${label.failed}: ${escape(slide.failure)}` : label.pending}*`, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
