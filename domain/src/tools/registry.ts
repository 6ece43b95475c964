/**
 * Platform tools: the product's own tools (search over the user's material, calculator, units,
 * time, word count) behind one registry, which the research agent calls and the agents page lists.
 * Arguments are validated by each tool's zod schema before it runs, because they come from a model.
 */
import { z } from 'zod';
import type { PayloadOf } from '@scriptorium/domain/protocol/content';
import { CatalogueError, chineseText, errorText, refusal, type CodedError } from '../protocol/errors.ts';
import { issueCode } from '../protocol/validation.ts';

export interface ToolContext {
  /** Whose material the tool may read. */
  userId: string;
  signal?: AbortSignal;
}

export interface ToolSource {
  title: string;
  url?: string;
}

export interface ToolResult {
  /** The tool's answer as JSON, for the model and for the client. */
  data: unknown;
  /** How many results this is in `total_results`: the hits of a search, 1 for a computed answer. */
  count: number;
  /** Material the answer came from, listed under the tools item and citable in the report. */
  sources?: ToolSource[];
}

export interface PlatformTool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  /** For the model and the agents page, in Chinese. */
  description: string;
  parameters: Schema;
  run(args: z.output<Schema>, context: ToolContext): Promise<ToolResult>;
}

/** How a tool is offered to a model (OpenAI function calling) and listed on the agents page. */
export interface ToolDescriptor {
  name: string;
  description: string;
  /** JSON Schema of the arguments, as the caller writes them (defaults optional). */
  parameters: Record<string, unknown>;
}

export type ToolErrorReason = 'unknown_tool' | 'invalid_args' | 'failed';

/**
 * A tool call that could not run or did not succeed. The message (Chinese) is what the model reads;
 * `refusal` is the same in catalogue form, for a person in their language, when the failure has one;
 * `issues` are the arguments' validation issues of an `invalid_args`.
 */
export class ToolError extends Error {
  readonly refusal: CodedError | undefined;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(
    readonly reason: ToolErrorReason,
    message: string,
    options: { cause?: unknown; refusal?: CodedError; issues?: readonly z.core.$ZodIssue[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.refusal = options.refusal;
    this.issues = options.issues ?? [];
  }

  /** A failure the catalogue words, its message the Chinese text. */
  static coded(reason: ToolErrorReason, refusal: CodedError, cause?: unknown): ToolError {
    return new ToolError(reason, chineseText(refusal), { refusal, ...(cause !== undefined && { cause }) });
  }
}

export class ToolRegistry {
  private readonly tools = new Map<string, PlatformTool>();

  register<Schema extends z.ZodType>(tool: PlatformTool<Schema>): this {
    if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
    this.tools.set(tool.name, tool as PlatformTool);
    return this;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(): ToolDescriptor[] {
    return [...this.tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>,
    }));
  }

  /**
   * Validates the arguments and runs the tool. A cancelled call throws the signal's reason; every
   * other failure is a ToolError.
   */
  async run(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    context.signal?.throwIfAborted();
    const tool = this.tools.get(name);
    if (!tool) throw ToolError.coded('unknown_tool', refusal('agents.unknown_tool', { name, available: [...this.tools.keys()].join(', ') }));
    const parsed = tool.parameters.safeParse(args ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issueCode(issue).msg}`);
      throw new ToolError('invalid_args', errorText('tools.invalid_args', { tool: name, problems: problems.join('；') }), { issues: parsed.error.issues });
    }
    try {
      return await tool.run(parsed.data, context);
    } catch (error) {
      if (context.signal?.aborted) throw context.signal.reason;
      if (error instanceof ToolError) throw error;
      if (error instanceof CatalogueError) throw ToolError.coded('failed', error.refusal, error);
      throw new ToolError('failed', error instanceof Error ? error.message : String(error), { cause: error });
    }
  }
}

export interface ToolCall {
  name: string;
  args: unknown;
}

/**
 * One call's outcome in `results_by_tool[name]` (a list per tool, in call order, since a tool can
 * be called more than once): the arguments as given, then the data, or the error message.
 */
export type ToolCallOutcome = { args: unknown; ok: true; data: unknown; count: number } | { args: unknown; ok: false; error: string };

export type PlatformToolsItem = PayloadOf<'platform_tools_results'> & { results_by_tool: Record<string, ToolCallOutcome[]> };

/**
 * Runs the calls side by side and reports them as the spec's platform tools item:
 * - `tools`: the distinct tool names, in call order; `tool_count` is their number
 * - `results_by_tool`: tool name → ToolCallOutcome per call
 * - `total_results`: the sum of the successful calls' counts
 * - `sources`: `{ title, url?, tool }` of every call's sources, each page once
 * - `sources_status`: tool name → `ok`, or `error` when any call of that tool failed
 * A failed call does not stop the others; a cancelled run throws the signal's reason.
 */
export async function runPlatformTools(registry: ToolRegistry, calls: readonly ToolCall[], context: ToolContext): Promise<PlatformToolsItem> {
  const settled = await Promise.all(
    calls.map(async (call) => {
      try {
        return { call, result: await registry.run(call.name, call.args, context) };
      } catch (error) {
        if (context.signal?.aborted) throw context.signal.reason;
        return { call, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const item: PlatformToolsItem = { tool_count: 0, tools: [], total_results: 0, results_by_tool: {}, sources: [], sources_status: {} };
  const seen = new Set<string>();
  for (const outcome of settled) {
    const { name, args } = outcome.call;
    if (!item.tools.includes(name)) item.tools.push(name);
    const list = (item.results_by_tool[name] ??= []);
    if ('result' in outcome && outcome.result) {
      const { data, count, sources = [] } = outcome.result;
      list.push({ args, ok: true, data, count });
      item.total_results += count;
      item.sources_status[name] ??= 'ok';
      for (const source of sources) {
        const key = source.url ?? `${name}\n${source.title}`;
        if (seen.has(key)) continue;
        seen.add(key);
        item.sources.push({ ...source, tool: name });
      }
    } else {
      list.push({ args, ok: false, error: outcome.error ?? '' });
      item.sources_status[name] = 'error';
    }
  }
  item.tool_count = item.tools.length;
  return item;
}
