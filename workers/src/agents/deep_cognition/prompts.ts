/** What the research agent asks a real model, and the shapes its JSON answers must have. */
import { z } from 'zod';
import { REPORT_LENGTHS, type ReportLength } from '@scriptorium/domain/protocol/research';
import type { Language } from './text.ts';

const inLanguage = (language: Language) => (language === 'zh' ? '使用简体中文。' : 'Write in English.');

export const ANALYSE_PROMPT =
  '你是深度研究助理。分析用户的研究问题：它问的是什么、已经给出了哪些范围（时间、地域、侧重点、用途），还缺什么，' +
  '以及不澄清是否就能写出有针对性的研究报告。只输出一个 JSON 对象，不要任何其他文字：' +
  '{"analysis": "简短的分析", "status": "一句话说明当前状态", "goal": "一句话说明研究目标", "needs_clarification": true 或 false}';

export const analyseSchema = z.object({
  analysis: z.string().min(1),
  status: z.string().min(1),
  goal: z.string().min(1),
  needs_clarification: z.boolean(),
});

export const CLARIFY_PROMPT =
  '你是深度研究助理。为了把用户的研究问题写成有针对性的报告，提出 2 到 5 个澄清问题，只问问题里没有说清的方面。' +
  '每个问题给出可选项（文本题可以没有选项）。只输出一个 JSON 对象，不要任何其他文字：' +
  '{"questions": [{"question_content": "问题", "question_options": ["选项"], "question_type": "single" | "multiple" | "text", "section_id": "scope|time|region|purpose|notes 等"}]}';

export const clarifySchema = z.object({
  questions: z
    .array(
      z.object({
        question_content: z.string().min(1).max(500),
        question_options: z.array(z.string().min(1).max(200)).max(10).default([]),
        question_type: z.enum(['single', 'multiple', 'text']).default('single'),
        section_id: z.string().max(50).optional(),
      }),
    )
    .min(1)
    .max(8),
});

export const PLAN_PROMPT =
  '你是深度研究助理。为下面的研究问题制定研究计划：步骤数随问题而定（范围窄、问得具体的问题 1 到 2 步，一般的问题 3 到 4 步，范围大的综合问题 5 到 6 步），每步一句话，并为每步给出 1 到 3 个搜索查询（适合搜索引擎的关键词）。' +
  '再为报告起一个标题（点明主题与要回答的问题，不超过 30 个字或 12 个英文单词），为每步起一个写给读者看的简短小标题（不超过 12 个字或 6 个英文单词，不重复标题已经说出的主题）；标题和小标题使用研究问题的语言。' +
  '最后按问题需要的篇幅选择 length：brief（一个具体问题，简短作答）、standard（一般的研究报告）或 detailed（范围大、需要深入分析的问题）。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"title": "报告标题", "length": "brief" | "standard" | "detailed", "steps": [{"description": "步骤", "heading": "小标题", "queries": ["查询"]}]}';

export const planSchema = z.object({
  steps: z
    .array(z.object({ description: z.string().min(1).max(300), heading: z.string().max(80).optional(), queries: z.array(z.string().min(1).max(200)).min(1).max(4) }))
    .min(1)
    .max(8),
  title: z.string().max(200).optional(),
  length: z.enum(REPORT_LENGTHS).optional().catch(undefined),
});

/**
 * An instruction that arrives while the steps are researched: whether it changes the research's
 * scope, and if so the steps still to do. The question stays the subject; finished steps stay.
 */
export const REPLAN_PROMPT =
  '你是深度研究助理。研究进行中，用户发来了新的要求。先判断它是否改变研究范围：要去掉、替换或新增研究步骤才算；只涉及写法、语气、篇幅或侧重的要求不算。' +
  '改变范围时，重新安排尚未完成（未开始或进行中）的步骤：仍然需要的步骤原样保留其 description，去掉用户不要的，按要求新增（每步一句话，附简短小标题和 1 到 3 个搜索查询）；已完成的步骤不要列出；研究问题不变。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"changes_scope": true 或 false, "steps": [{"description": "步骤", "heading": "小标题", "queries": ["查询"]}]}';

export const replanSchema = z.object({
  changes_scope: z.boolean(),
  steps: z
    .array(z.object({ description: z.string().min(1).max(300), heading: z.string().max(80).optional(), queries: z.array(z.string().min(1).max(200)).min(1).max(4) }))
    .max(8)
    .default([]),
});

export const QUERIES_PROMPT =
  '你是深度研究助理。根据研究问题、现有报告的提纲和用户的要求，给出 1 到 3 个新的搜索查询（适合搜索引擎的关键词），用来找到报告还没有的资料。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"queries": ["查询"]}';

export const queriesSchema = z.object({ queries: z.array(z.string().min(1).max(200)).min(1).max(4) });

export const JUDGE_PROMPT =
  '你是深度研究助理。判断哪些搜索结果对当前研究步骤有用（提供了步骤需要的事实、数据或观点）。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"useful": [有用结果的编号]}';

/**
 * Only the numbers: a line per result made the judge the longest answer on the research's critical
 * path (each step's pages wait for it); what a useful result offers is its snippet's best sentence.
 */
export const judgeSchema = z.object({ useful: z.array(z.number().int().min(1)).max(50) });

export const REFLECT_PROMPT =
  '你是深度研究助理。判断下面已读的资料是否足以回答当前研究步骤的问题：有没有缺口（步骤要求但资料没有的信息），有没有矛盾（资料之间对同一事实说法不一）。' +
  '资料足够就回答 answered 为 true；否则说明原因，并给出 1 到 3 个新的搜索查询（适合搜索引擎的关键词），用来补上缺口或核实矛盾的说法。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"answered": true 或 false, "reason": "一句话原因", "follow_up_queries": ["查询"]}';

export const reflectSchema = z.object({
  answered: z.boolean(),
  reason: z.string().max(400).default(''),
  follow_up_queries: z.array(z.string().min(1).max(200)).max(4).default([]),
});

/** The length each part of the report is asked to keep, by the report's length. */
const SECTION_LENGTH: Record<ReportLength, Record<Language, string>> = {
  brief: { zh: '这一节写 100 到 250 字，只写回答问题所需的要点。', en: 'Keep this section to 60–150 words: only what answering the question needs.' },
  standard: { zh: '这一节写 300 到 600 字。', en: 'Write 200–400 words for this section.' },
  detailed: { zh: '这一节写 600 到 1000 字，给出数据、对比和分析。', en: 'Write 400–700 words for this section, with figures, comparisons and analysis.' },
};
const SUMMARY_LENGTH: Record<ReportLength, Record<Language, string>> = {
  brief: { zh: '摘要写 2 到 3 句。', en: 'Keep the summary to 2–3 sentences.' },
  standard: { zh: '摘要写一段话，再列出 3 到 5 条要点。', en: 'Write one paragraph, then 3–5 key points.' },
  detailed: { zh: '摘要写一到两段话，再列出 4 到 6 条要点。', en: 'Write one or two paragraphs, then 4–6 key points.' },
};

export const sectionPrompt = (language: Language, length: ReportLength = 'standard') =>
  '你是严谨的研究报告撰写者，正在撰写研究报告中的一节。' +
  inLanguage(language) +
  '用 Markdown 书写，不要写这一节的标题（已经写好），需要时可以用三级标题。每个来自资料的事实、数据或观点后面用 [n] 标注资料编号；' +
  '不要编造资料中没有的事实，资料不足时直接说明。不要写参考文献列表。' +
  SECTION_LENGTH[length][language];

/** The summary heads the report: the answer first, for a reader who reads nothing else. */
export const summaryPrompt = (language: Language, length: ReportLength = 'standard') =>
  '你是严谨的研究报告撰写者，正在写研究报告开头的摘要：先直接回答研究问题，再概括主要发现，必要时给出建议。' +
  inLanguage(language) +
  '用 Markdown 书写，不要写标题。来自资料的内容用 [n] 标注编号，不要编造资料中没有的事实。不要写参考文献列表。' +
  SUMMARY_LENGTH[length][language];

export const deepenPrompt = (language: Language) =>
  '你是严谨的研究报告撰写者。在已有报告的基础上写一节新的深入内容：补充新资料中的数据、案例、对比与分析，不要重复已有内容。' +
  inLanguage(language) +
  '用 Markdown 书写，不要写这一节的标题（已经写好），可以用三级标题。来自资料的内容后面用 [n] 标注编号。不要写参考文献列表。';

export const revisePrompt = (language: Language) =>
  '你是严谨的研究报告撰写者。按用户的修改意见修改整篇报告，输出修改后的完整报告（Markdown，第一行是 # 标题），' +
  '保留仍然正确的内容和它们的 [n] 引用编号，新资料的内容同样用 [n] 标注。' +
  inLanguage(language) +
  '不要写参考文献列表，不要解释你改了什么。';

export const EDIT_PROMPT =
  '你是编辑。按用户的指令修改给出的文本片段，只输出修改后的片段本身：不要解释，不要加引号或代码块，' +
  '保留片段中的 [n] 引用标记和 Markdown 格式，除非指令要求改变它们。使用与片段相同的语言，除非指令要求翻译。';

export const directWritingPrompt = (language: Language) =>
  '你是专业的写作助手。根据用户的写作要求直接写出一篇完整的报告或文章，用 Markdown，第一行是 # 标题。' +
  inLanguage(language) +
  '如果提供了资料，来自资料的内容后面用 [n] 标注编号；不要编造资料中没有的事实，不要写参考文献列表。';

export const CITATIONS_PROMPT =
  '你核查研究报告里的引用。下面每条论断后附有它所引用来源的一段原文。逐条判断这段原文是否支持该论断：数字、名称和说法都要对得上，只是话题相同不算支持。' +
  '不支持时，在 rewrite 中只依据这段原文把这句话改写成原文确实支持的说法，语言与论断相同，不加引用编号；原文与论断无关时 rewrite 留空。' +
  '只输出一个 JSON 对象，不要任何其他文字：{"citation_checks": [{"id": 1, "supported": true 或 false, "rewrite": "改写后的句子，或空字符串"}]}';

export const citationsSchema = z.object({
  citation_checks: z.array(z.object({ id: z.number().int(), supported: z.boolean(), rewrite: z.string().max(2000).optional() })),
});
