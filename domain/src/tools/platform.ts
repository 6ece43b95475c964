/** The platform tools the product ships, and the registry that holds them. */
import { z } from 'zod';
import { DOCUMENT_KINDS, type LocalCorpus } from '@scriptorium/infra/search/local';
import { refusal } from '../protocol/errors.ts';
import { evaluate, MAX_EXPRESSION_CHARS } from './calculator.ts';
import { ToolError, ToolRegistry, type PlatformTool } from './registry.ts';
import { convert, unitList } from './units.ts';

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

export const calculatorTool: PlatformTool<z.ZodObject<{ expression: z.ZodString }>> = {
  name: 'calculator',
  description: '计算算术表达式。支持 + - * / %（取余）^（乘方）、括号、小数，以及函数 sqrt、log（以 10 为底，或 log(x, 底数)）、ln、abs、round(x, 小数位数) 和常量 pi、e。',
  parameters: z.object({ expression: z.string().min(1).max(MAX_EXPRESSION_CHARS).describe('算术表达式，例如 (1 + 2) * 3^2') }),
  async run({ expression }) {
    return { data: { expression, result: evaluate(expression) }, count: 1 };
  },
};

const units = unitList();

export const unitConvertTool: PlatformTool<z.ZodObject<{ value: z.ZodNumber; from: z.ZodString; to: z.ZodString }>> = {
  name: 'unit_convert',
  description:
    `换算长度、质量、时间和温度单位。长度：${units.length.join('、')}；质量：${units.mass.join('、')}；` +
    `时间：${units.time.join('、')}；温度：${units.temperature.join('、')}。也接受中英文名称，如 公里、斤、小时、摄氏度。`,
  parameters: z.object({
    value: z.number().finite().describe('数值'),
    from: z.string().min(1).describe('原单位'),
    to: z.string().min(1).describe('目标单位'),
  }),
  async run({ value, from, to }) {
    const result = convert(value, from, to);
    return { data: { input: { value, unit: result.from }, output: { value: result.value, unit: result.to }, dimension: result.dimension }, count: 1 };
  },
};

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

export function currentTimeTool(clock: () => Date = () => new Date()): PlatformTool<z.ZodObject<{ timeZone: z.ZodDefault<z.ZodString> }>> {
  return {
    name: 'current_time',
    description: `查询当前日期和时间。可指定 IANA 时区（如 Asia/Shanghai、America/New_York、UTC），默认 ${DEFAULT_TIME_ZONE}。`,
    parameters: z.object({ timeZone: z.string().refine(isTimeZone, 'agents.time_zone_unknown').default(DEFAULT_TIME_ZONE).describe('IANA 时区名') }),
    async run({ timeZone }) {
      const now = clock();
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', weekday: 'short', timeZoneName: 'longOffset' })
          .formatToParts(now)
          .map((part) => [part.type, part.value]),
      );
      const dayIndex = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
      // longOffset reads "GMT+08:00", and plain "GMT" for UTC itself.
      const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
      return {
        data: {
          time_zone: timeZone,
          local: `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`,
          weekday: WEEKDAYS[dayIndex] ?? '',
          utc_offset: offset,
          iso: now.toISOString(),
        },
        count: 1,
      };
    },
  };
}

/** Counts as Chinese editors count: each CJK character is a word, as is each run of Latin letters or digits. */
export function countWords(text: string): { words: number; cjk_characters: number; latin_words: number; characters: number; characters_with_spaces: number; paragraphs: number } {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  const latin = text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)?.filter((word) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)).length ?? 0;
  const characters = Array.from(text.replace(/\s/g, '')).length;
  return {
    words: cjk + latin,
    cjk_characters: cjk,
    latin_words: latin,
    characters,
    characters_with_spaces: Array.from(text).length,
    paragraphs: text.split(/\n\s*\n/).filter((block) => block.trim().length > 0).length,
  };
}

export const wordCountTool: PlatformTool<z.ZodObject<{ text: z.ZodString }>> = {
  name: 'word_count',
  description: '统计文本字数：中文、日文、韩文每个字计一个字，英文和数字按词计；同时给出不含空白的字符数、含空白的字符数和段落数。',
  parameters: z.object({ text: z.string().describe('要统计的文本') }),
  async run({ text }) {
    return { data: countWords(text), count: 1 };
  },
};

const localSearchParameters = z.object({
  query: z.string().trim().min(1).describe('检索词'),
  kinds: z.array(z.enum(DOCUMENT_KINDS)).optional().describe('只检索这些类型：note 笔记、upload 上传文件、source 以往报告的资料来源、cognition 认知库'),
  limit: z.number().int().min(1).max(20).default(5).describe('最多返回的条数'),
});

export function localSearchTool(corpus: Pick<LocalCorpus, 'search'>): PlatformTool<typeof localSearchParameters> {
  return {
    name: 'local_search',
    description: '检索当前用户自己的资料：笔记、上传的文件、认知库条目和以往研究用过的资料来源。只能查到该用户本人的内容。',
    parameters: localSearchParameters,
    async run({ query, kinds, limit }, { userId, signal }) {
      signal?.throwIfAborted();
      const hits = corpus.search(userId, query, limit, kinds ? { kinds } : {});
      return {
        data: { query, hits },
        count: hits.length,
        sources: hits.map((hit) => ({ title: hit.title, ...(hit.url && { url: hit.url }) })),
      };
    },
  };
}

export interface PlatformToolsOptions {
  /** The user's material; without it there is no local_search tool. */
  corpus?: Pick<LocalCorpus, 'search'>;
  clock?: () => Date;
}

export function createPlatformTools(options: PlatformToolsOptions = {}): ToolRegistry {
  const registry = new ToolRegistry().register(calculatorTool).register(unitConvertTool).register(currentTimeTool(options.clock)).register(wordCountTool);
  if (options.corpus) registry.register(localSearchTool(options.corpus));
  return registry;
}

/**
 * Where the user's material is not at hand (the api role, which tries tools out for the agents
 * page), local_search is still listed and says where it runs, rather than searching nothing.
 */
const materialElsewhere: Pick<LocalCorpus, 'search'> = {
  search() {
    throw ToolError.coded('failed', refusal('tools.only_in_agents'));
  },
};

export const createAgentToolPreview = (clock?: () => Date): ToolRegistry => createPlatformTools({ corpus: materialElsewhere, ...(clock && { clock }) });
