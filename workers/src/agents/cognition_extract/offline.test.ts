import test from 'ava';
import { EDITOR_NOTE, MARKDOWN_DEBRIS } from '../deep_cognition/harness.ts';
import { centralSentences, offlineCognition, TooLittleMaterial, topTags, type Material } from './offline.ts';

const NOTES: Material[] = [
  {
    n: 1,
    title: '钠电池走访',
    text: '钠离子电池在零下二十度仍能放电，低温性能好。钠离子电池的成本比锂电池低三成。今天午饭吃了面条。储能电站更看重钠离子电池的成本。',
  },
  {
    n: 2,
    title: '储能政策',
    text: '新型储能的装机规模去年翻了一番。储能电站的招标开始要求低温性能指标。钠离子电池有望在储能电站率先规模应用。',
  },
];

test('the sentences the material keeps returning to are chosen, from every source, and small talk is not', (t) => {
  const chosen = centralSentences(NOTES, 4);
  t.true(chosen.some((candidate) => candidate.n === 1));
  t.true(chosen.some((candidate) => candidate.n === 2));
  t.false(chosen.some((candidate) => candidate.sentence.includes('面条')));
});

test('an offline cognition cites each insight to its source and lists the basis', (t) => {
  const cognition = offlineCognition(NOTES, '钠电池走访 等 2 篇笔记');
  t.is(cognition.title, '钠电池走访 等 2 篇笔记');
  t.true(cognition.insights.length >= 3);
  t.regex(cognition.content, /## 核心认知\n\n1\. .+ \[[12]\]/);
  t.true(cognition.content.includes('- [2] 储能政策'));
  t.true(cognition.content.startsWith('> 由离线引擎从原文摘录整理'));
  t.true(cognition.tags.includes('钠离子电池'));
});

test('material with no sentences to draw on is refused with a clear reason', (t) => {
  t.throws(() => offlineCognition([{ n: 1, title: '空', text: '待补充' }], '空'), { instanceOf: TooLittleMaterial, message: '资料内容太少，无法提取认知：请选择有正文的笔记或网页' });
});

test('tags are the phrases named more than once', (t) => {
  t.deepEqual(topTags([{ n: 1, title: 'a', text: 'only once here' }]), []);
});

test('a note saved with Markdown gives insights, summary and body as text: no escapes, markup or stray list markers', (t) => {
  const cognition = offlineCognition([{ n: 1, title: '钠电池走访', text: EDITOR_NOTE }, NOTES[1]!], '钠电池走访 等 2 篇笔记');
  for (const text of [cognition.summary, ...cognition.insights]) {
    t.false(MARKDOWN_DEBRIS.test(text) || text.includes(']('), text);
  }
  t.false(MARKDOWN_DEBRIS.test(cognition.content), cognition.content);
  t.true(cognition.insights.some((insight) => insight.startsWith('重点：钠离子电池在零下二十度')));
  t.false(cognition.tags.some((tag) => /example|https/.test(tag)));
});

test('an insight keeps the link targets and inline code of the note it quotes; one too long to show whole is clipped as prose', (t) => {
  const linked: Material[] = [
    {
      n: 1,
      title: '部署笔记',
      text: [
        '部署前先运行 `npm run build` 构建前端，再运行 `npm start` 启动服务。',
        '构建前端的步骤见 [Vite 文档](https://vite.dev/guide/build) 的构建一节，构建前端很快。',
        '启动服务之前先构建前端，`npm start` 会读取构建好的前端文件。',
        `${'构建前端'.repeat(50)}，详见 [长文](https://example.com/long)。`,
      ].join('\n\n'),
    },
  ];
  const { insights } = offlineCognition(linked, '部署笔记');
  t.true(insights.includes('部署前先运行 `npm run build` 构建前端，再运行 `npm start` 启动服务。'), insights.join('\n'));
  t.true(insights.includes('构建前端的步骤见 [Vite 文档](https://vite.dev/guide/build) 的构建一节，构建前端很快。'), insights.join('\n'));
  const long = insights.find((insight) => insight.startsWith('构建前端构建前端'));
  t.truthy(long);
  t.false(long!.includes('](https://'), 'a clipped insight carries no half a link');
});
