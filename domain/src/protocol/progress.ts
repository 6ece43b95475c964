/**
 * What an agent reports while it works, as a code with parameters: the client words it in the
 * user's language (i18n key `progress.<code>`), so no one has to read meaning back out of a sentence.
 * Each code also has the text that travels beside it — the spec's string where the spec gives one,
 * otherwise the Chinese sentence — for readers without the catalogue (older clients, the log).
 */
import { z } from 'zod';

const none = z.object({});
const reason = z.object({ reason: z.enum(['unconfigured', 'off']) });
/** The research agent's internal (JSON) calls, by what each decides. */
export const INTERNAL_CALLS = ['analyse', 'clarify', 'plan', 'judge', 'summarise', 'queries', 'reflect', 'citations', 'replan'] as const;
export type InternalCall = (typeof INTERNAL_CALLS)[number];
const call = z.object({ call: z.enum(INTERNAL_CALLS) });
const section = z.object({ section: z.string() });
const citations = z.object({ section: z.string(), checked: z.number().int(), repaired: z.number().int(), marked: z.number().int(), removed: z.number().int() });
const callText: Record<InternalCall, string> = { analyse: '问题分析', clarify: '澄清问题', plan: '研究计划', judge: '搜索结果的判断', summarise: '网页摘要', queries: '检索词', reflect: '对资料是否足够的判断', citations: '引用核查', replan: '对新要求是否改变研究范围的判断' };

const catalogue = {
  'research.planning': { params: none, level: 'info', text: () => 'Planing .....' },
  'research.clarifying': { params: none, level: 'info', text: () => 'Making Clarification Questions .....' },
  'research.clarified': { params: none, level: 'info', text: () => 'Clarification Questions Generated' },
  'research.webSearch': { params: none, level: 'info', text: () => '联网搜索已开启：从网络检索资料' },
  'research.localSearch': { params: reason, level: 'info', text: (p: z.infer<typeof reason>) => `${whyText[p.reason]}：改为检索你的本地资料（笔记、上传文件、认知库和以往来源）` },
  'research.noMaterial': { params: reason, level: 'warning', text: (p: z.infer<typeof reason>) => `${whyText[p.reason]}，也没有可检索的本地资料：报告只能说明缺少资料` },
  'research.searchFailed': { params: z.object({ query: z.string() }), level: 'warning', text: (p: { query: string }) => `搜索“${p.query}”失败，已跳过` },
  'research.resuming': { params: none, level: 'info', text: () => '继续上次中断的研究：沿用已确认的研究范围，重新检索并撰写报告' },
  'research.attachedRead': {
    params: z.object({ count: z.number().int(), titles: z.array(z.string()) }),
    level: 'info',
    text: (p: { count: number; titles: string[] }) => `已读取你为本次研究添加的 ${p.count} 份资料：${p.titles.join('、')}`,
  },
  'research.attachedLate': {
    params: z.object({ count: z.number().int(), titles: z.array(z.string()) }),
    level: 'info',
    text: (p: { count: number; titles: string[] }) => `已读取你刚添加的 ${p.count} 份资料：${p.titles.join('、')}，将用于尚未撰写的各节`,
  },
  'research.continuing': {
    params: z.object({ steps: z.number().int(), sections: z.number().int() }),
    level: 'info',
    text: (p: { steps: number; sections: number }) => `从中断处继续：沿用已完成的 ${p.steps} 个检索步骤和已写完的 ${p.sections} 节，只补上缺少的部分`,
  },
  'research.takenOver': { params: none, level: 'info', text: () => '上一个工作进程中断，研究从已写出的位置继续' },
  'research.rulesFallback': { params: call, level: 'warning', text: (p: z.infer<typeof call>) => `模型两次重试后仍未给出可用的${callText[p.call]}，本步改用规则完成` },
  'research.sectionRetry': { params: section, level: 'warning', text: (p: z.infer<typeof section>) => `“${p.section}”一节的输出中途断开，已回退到本节开头重新撰写` },
  'research.sectionEmpty': { params: section, level: 'warning', text: (p: z.infer<typeof section>) => `模型没有为“${p.section}”一节写出内容，报告中已注明` },
  'research.sectionCapped': { params: section, level: 'warning', text: (p: z.infer<typeof section>) => `“${p.section}”一节达到了模型的输出上限，可能不完整，报告中已注明` },
  'research.followUp': {
    params: z.object({ section: z.string(), reason: z.string(), queries: z.array(z.string()) }),
    level: 'info',
    text: (p: { section: string; reason: string; queries: string[] }) => `“${p.section}”还需补充（${p.reason}），追加搜索：${p.queries.join('、')}`,
  },
  'research.citationsChecked': {
    params: citations,
    level: 'info',
    text: (p: z.infer<typeof citations>) => `“${p.section}”一节的 ${p.checked} 处引用已与来源核对：${p.repaired} 处已修正，${p.marked} 处标为待核实，${p.removed} 处无效编号已删除`,
  },
  'research.editChecked': {
    params: citations.omit({ section: true }),
    level: 'info',
    text: (p: Omit<z.infer<typeof citations>, 'section'>) => `修改处的 ${p.checked} 处引用已与来源核对：${p.repaired} 处已修正，${p.marked} 处标为待核实，${p.removed} 处无效编号已删除`,
  },
  'research.instructionApplied': {
    params: z.object({ id: z.string(), instruction: z.string(), to: z.enum(['plan', 'writing']) }),
    level: 'info',
    text: (p: { instruction: string; to: 'plan' | 'writing' }) => `已按你的要求“${p.instruction}”调整：${p.to === 'plan' ? '重新制定研究计划，已读的资料继续使用' : '尚未撰写的部分将照此撰写'}`,
  },
  'research.instructionLate': {
    params: z.object({ id: z.string(), instruction: z.string() }),
    level: 'warning',
    text: (p: { instruction: string }) => `你的要求“${p.instruction}”到达时这次修订已经写完，未能采纳；可以在下面的反馈中再提一次`,
  },
  'research.planRevised': {
    params: z.object({ ids: z.array(z.string()), instruction: z.string(), removed: z.array(z.string()), added: z.array(z.string()) }),
    level: 'info',
    text: (p: { instruction: string; removed: string[]; added: string[] }) =>
      `已按你的要求“${p.instruction}”重新安排尚未完成的步骤（研究问题不变）：${[p.removed.length > 0 ? `去掉 ${p.removed.join('、')}` : '', p.added.length > 0 ? `新增 ${p.added.join('、')}` : ''].filter(Boolean).join('；')}`,
  },
  'research.tokensUsed': { params: z.object({ tokens: z.number().int() }), level: 'info', text: (p: { tokens: number }) => `本次研究共用 ${p.tokens} tokens` },
  'research.budgetLow': {
    params: z.object({ remaining: z.number().int(), estimate: z.number().int() }),
    level: 'warning',
    text: (p: { remaining: number; estimate: number }) => `今日剩余额度约 ${p.remaining} tokens，少于一次研究通常所需的约 ${p.estimate} tokens：报告可能写不完，写到哪里就保存到哪里`,
  },
  'research.waitingForModel': { params: z.object({ until: z.string() }), level: 'warning', text: (p: { until: string }) => `模型服务要求稍候，研究将于 ${p.until} 自动继续` },
  'research.cutShortSaved': { params: none, level: 'warning', text: () => '上次运行在写作过程中中断，已保存已写出的部分，不再重复写作' },
  'research.interrupted': { params: none, level: 'warning', text: () => '研究已中断，已完成的部分已保存' },
  'chat.cutShortKept': { params: none, level: 'info', text: () => '回复在生成过程中中断，已保留已生成的内容' },
  'chat.paused': { params: none, level: 'info', text: () => '已暂停生成，已保存已生成的内容' },
} as const;

const whyText = { unconfigured: '未配置网络搜索', off: '联网搜索已关闭' } as const;

type Catalogue = typeof catalogue;
export type ProgressCode = keyof Catalogue;
export const PROGRESS_CODES = Object.keys(catalogue) as ProgressCode[];

export type Progress = { [C in ProgressCode]: { code: C; params: z.infer<Catalogue[C]['params']> } }[ProgressCode];
export type ProgressParams<C extends ProgressCode> = z.infer<Catalogue[C]['params']>;

const options = PROGRESS_CODES.map((code) => z.object({ code: z.literal(code), params: catalogue[code].params }));
// zod cannot see that each code goes with its own params, so the union's type is stated.
export const progressSchema = z.discriminatedUnion('code', options as [(typeof options)[number], ...typeof options]) as unknown as z.ZodType<Progress>;

export const progressLevel = (code: ProgressCode): 'info' | 'warning' => catalogue[code].level;

export function progressText(progress: Progress): string {
  return (catalogue[progress.code].text as (params: Progress['params']) => string)(progress.params);
}

/**
 * Log entries written before codes existed carry only the spec's fixed strings; the same strings
 * name their codes again, so old and new research show alike.
 */
export const codeOfSpecText = (text: string): ProgressCode | undefined =>
  PROGRESS_CODES.find((code) => catalogue[code].params === none && (catalogue[code].text as () => string)() === text.trim());
