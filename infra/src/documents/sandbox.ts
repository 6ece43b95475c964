import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { DeckError, type Deck } from '../deck/port.ts';
import { ExtractError } from '../extract/errors.ts';
import { FetchError } from '../fetch/errors.ts';
import type { ReadablePage } from '../fetch/readable.ts';

/** What a document worker is asked to do. */
export type DocumentTask =
  | { task: 'deck'; bytes: Uint8Array }
  | { task: 'text'; kind: 'pdf' | 'docx' | 'html'; bytes: Uint8Array; maxChars: number }
  /** A fetched web page, already decoded. */
  | { task: 'page'; source: string; fallbackTitle: string };

/** The text of a document, normalised, cut after `maxChars + 1` characters so the caller sees whether it was longer. */
export interface DocumentText {
  text: string;
  title?: string;
  pages?: number;
}

type Results = { deck: Deck; text: DocumentText; page: ReadablePage };

/** A refusal as it crosses the thread boundary: the class's name and its fields. */
export type WorkerRefusal = { type: 'deck'; reason: DeckError['reason']; code: string; params: DeckError['params'] } | { type: 'extract'; reason: ExtractError['reason']; message: string; code: string; params: ExtractError['params'] };
export type WorkerAnswer = { ok: true; result: unknown } | { ok: false; refusal: WorkerRefusal | null };

export interface SandboxLimits {
  /** V8's old generation, where a parsed document lives; past it the worker dies, not the process. */
  heapMb: number;
  youngMb: number;
  timeoutMs: number;
  /** Documents read at once by this process; the others wait their turn. */
  concurrency: number;
}

/**
 * Sized for what a real document needs (a 20 MB PDF or DOCX reads in well under 200 MB of heap and a
 * few seconds) with room to spare on a loaded machine; two at once leave a 2-core host a core to answer on.
 */
export const DEFAULT_LIMITS: SandboxLimits = { heapMb: 384, youngMb: 32, timeoutMs: 60_000, concurrency: 2 };

/** Under tsx (dev, tests) this file is .ts and the worker is entered through tsx; in the compiled server both are .js in dist/. */
const WORKER_FILE = fileURLToPath(new URL(extname(fileURLToPath(import.meta.url)) === '.ts' ? './documentWorker.dev.mjs' : './documentWorker.js', import.meta.url));

/**
 * Untrusted documents (pptx, docx, pdf, html) are parsed in a worker thread with V8 resource limits
 * and a time limit, one worker per document: whatever a hostile file makes a parser do, it fails that
 * document with a coded refusal (`deck.too_complex`, `files.too_complex`) and the process keeps serving.
 */
export class DocumentSandbox {
  private static instance: DocumentSandbox | undefined;
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(private readonly limits: SandboxLimits = DEFAULT_LIMITS) {
    this.limit = pLimit(limits.concurrency);
  }

  /** The process's sandbox: one queue of document workers for every route that reads uploads. */
  static shared(): DocumentSandbox {
    DocumentSandbox.instance ??= new DocumentSandbox();
    return DocumentSandbox.instance;
  }

  run<T extends DocumentTask>(task: T): Promise<Results[T['task']]> {
    return this.limit(() => this.spawn(task)) as Promise<Results[T['task']]>;
  }

  private spawn(task: DocumentTask): Promise<unknown> {
    const tooComplex = () =>
      task.task === 'deck'
        ? new DeckError('unreadable', 'deck.too_complex')
        : task.task === 'page'
          ? new FetchError('too_large', 'fetch.too_complex', {})
          : new ExtractError('unreadable', '文件内容过于复杂，无法在限定的内存和时间内读取', 'files.too_complex');
    const unreadable = () => (task.task === 'deck' ? new DeckError('unreadable', 'deck.corrupt') : task.task === 'page' ? new FetchError('too_large', 'fetch.too_complex', {}) : new ExtractError('unreadable', '文件无法读取', 'files.unreadable'));
    return new Promise((resolve, reject) => {
      const worker = new Worker(WORKER_FILE, {
        resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: this.limits.youngMb, stackSizeMb: 4 },
      });
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        void worker.terminate();
      };
      const timer = setTimeout(() => settle(() => reject(tooComplex())), this.limits.timeoutMs);
      worker.once('message', (answer: WorkerAnswer) => settle(() => (answer.ok ? resolve(answer.result) : reject(answer.refusal ? revive(answer.refusal) : unreadable()))));
      // ERR_WORKER_OUT_OF_MEMORY, a parser's stack overflow, or any crash of the worker: the document's fault.
      worker.once('error', () => settle(() => reject(tooComplex())));
      worker.once('exit', () => settle(() => reject(tooComplex())));
      // Structured cloning copies the bytes: the caller's stay intact whatever the worker does.
      worker.postMessage(task);
    });
  }
}

function revive(refusal: WorkerRefusal): Error {
  return refusal.type === 'deck' ? new DeckError(refusal.reason, refusal.code, refusal.params) : new ExtractError(refusal.reason, refusal.message, refusal.code, refusal.params);
}
