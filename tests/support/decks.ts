import pptxgen from 'pptxgenjs';
import type { ChatBody } from './mockOpenAI.ts';

// The package's types are read as CommonJS (its default is `.default`), while Node loads its ES build, whose default is the class.
const PptxGenJS = pptxgen as unknown as typeof pptxgen.default;

/** A 1×1 PNG, enough for an image part and a picture on a slide. */
const PIXEL = 'image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export interface SlideSpec {
  /** Put in the layout's title placeholder; omitted, the slide has no title. */
  title?: string;
  /** Bullet points in the body placeholder. */
  bullets?: string[];
  /** A free text box outside any placeholder. */
  text?: string;
  notes?: string;
  images?: number;
}

/**
 * A real .pptx written by pptxgenjs (a library nobody here wrote), from a master with title and
 * body placeholders the way PowerPoint's own layouts have them.
 */
export async function buildDeck(slides: SlideSpec[]): Promise<Buffer> {
  const deck = new PptxGenJS();
  deck.defineSlideMaster({
    title: 'CONTENT',
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 0.9 }, text: '' } },
      { placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1.4, w: 9, h: 3.8 }, text: '' } },
    ],
  });
  for (const spec of slides) {
    const slide = deck.addSlide({ masterName: 'CONTENT' });
    if (spec.title !== undefined) slide.addText(spec.title, { placeholder: 'title' });
    if (spec.bullets?.length) slide.addText(spec.bullets.map((text) => ({ text, options: { bullet: true, breakLine: true } })), { placeholder: 'body' });
    if (spec.text) slide.addText(spec.text, { x: 0.5, y: 4.6, w: 9, h: 0.6 });
    for (let index = 0; index < (spec.images ?? 0); index++) slide.addImage({ data: PIXEL, x: 6 + index * 0.3, y: 4, w: 0.5, h: 0.5 });
    if (spec.notes) slide.addNotes(spec.notes);
  }
  return (await deck.write({ outputType: 'nodebuffer' })) as Buffer;
}

/** A small deck with the faults the offline review looks for, and one good slide. */
export const SAMPLE_DECK: SlideSpec[] = [
  { title: '季度复盘', bullets: ['收入同比增长 18%', '新客户 42 家'], notes: '开场：先讲结论。', images: 1 },
  { title: '市场分析。', bullets: ['竞品 A 降价', '竞品 A 降价', '我们的份额稳定稳定在 12%'] },
  { bullets: ['没有标题的一页'], notes: '这一页需要补标题' },
  {
    title: '下一步计划',
    bullets: ['第一，扩大华东销售团队并在三个新城市开设办公室，预计带来更多线索', '第二，上线自助试用并配套在线培训课程与客户成功团队支持', '第三，重做定价页面，把企业版与团队版的差异说清楚，减少销售答疑时间'],
    notes: '强调时间表。',
  },
];

/**
 * A mock model's answer to the review worker's request for one slide: a valid review in a fenced
 * JSON block, or prose where JSON is asked for (always for slides in `malformed`, on the first try
 * for those in `malformedOnce`).
 */
export function mockSlideReviewer(faults: { malformedOnce?: number[]; malformed?: number[] } = {}): (body: ChatBody) => string {
  return (body) => {
    const prompt = body.messages?.find((message) => message.role === 'user')?.content ?? '';
    const retried = (body.messages?.length ?? 0) > 2;
    const slide = Number(/(?:Review slide|请评审第) (\d+)/.exec(prompt)?.[1]);
    if (faults.malformed?.includes(slide) || (faults.malformedOnce?.includes(slide) && !retried)) return 'Sure! Here is my review: the slide is fine.';
    const zh = prompt.includes('请评审');
    const aspect = { rating: 'fair', points: [zh ? `第 ${slide} 页：先讲结论，再给数据` : `Slide ${slide}: lead with the result`] };
    const good = { rating: 'good', points: [] };
    const rewrite = zh ? `第 ${slide} 页改写\n- 一个要点` : `Slide ${slide} rewritten\n- One point`;
    return '```json\n' + JSON.stringify({ score: 70 + slide, clarity: aspect, structure: good, consistency: good, spelling: good, rewrite }) + '\n```';
  };
}
