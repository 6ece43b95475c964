/**
 * The SQLite read store's side of its writer thread (`sqliteWriter.ts`): hands bulk transactions over
 * in order, remembers what they wrote until the writer has committed it (so that later transactions
 * read their predecessors' documents), and says when everything handed over is readable or failed.
 */
import { Worker } from 'node:worker_threads';
import type { PendingWrite, WriteBatch, WriterData, WriteReply } from './sqliteWriter.ts';

/**
 * How many handed-over transactions may wait for the writer: two keep it busy while the next is
 * computed, and bound the memory of documents not yet written.
 */
export const MAX_BATCHES_IN_FLIGHT = 2;

/** A batch the writer refused; `code` is SQLite's (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_FULL`…). */
export class WriteBehindError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'WriteBehindError';
  }
}

interface Unwritten {
  doc: string | null;
  seq: number;
}

export class WriteBehind {
  private worker: Worker | undefined;
  private lastSeq = 0;
  private settledSeq = 0;
  private epoch = 0;
  /** table → id → the newest write handed over and not yet committed. */
  private readonly unwritten = new Map<string, Map<string, Unwritten>>();
  private readonly keysOf = new Map<number, PendingWrite[]>();
  private waiters: Array<{ seq: number; resolve: () => void }> = [];
  /** A batch failed and nobody has been told yet: the next transaction is. */
  private failure: Error | undefined;
  /** The writer has answered at least once: a thread that dies before that could not start at all. */
  private started = false;
  /** False once a writer thread could not start: the store then commits bulk transactions itself. */
  usable = true;

  constructor(
    private readonly file: string,
    private readonly script = new URL('./sqliteWriter.ts', import.meta.url),
  ) {}

  /** The newest unwritten text of a document: a string, null when deleted, undefined when none is waiting. */
  lookup(table: string, id: string): string | null | undefined {
    return this.unwritten.get(table)?.get(id)?.doc;
  }

  /** Hands one transaction's writes over; the caller has made room with `room()`. */
  submit(writes: PendingWrite[], checkpoints: Array<[string, number]>): void {
    const seq = ++this.lastSeq;
    for (const [table, id, doc] of writes) {
      let docs = this.unwritten.get(table);
      if (docs === undefined) {
        docs = new Map();
        this.unwritten.set(table, docs);
      }
      docs.set(id, { doc, seq });
    }
    this.keysOf.set(seq, writes);
    const worker = this.start();
    if (seq === this.settledSeq + 1) worker.ref();
    const batch: WriteBatch = { seq, epoch: this.epoch, writes, checkpoints };
    worker.postMessage(batch);
  }

  /** Resolves once fewer than `MAX_BATCHES_IN_FLIGHT` transactions wait for the writer. */
  room(): Promise<void> {
    return this.settled(this.lastSeq - MAX_BATCHES_IN_FLIGHT + 1);
  }

  /** Resolves once everything handed over so far is committed or refused. */
  idle(): Promise<void> {
    return this.settled(this.lastSeq);
  }

  /** The failure nobody has been told about, now told. */
  takeFailure(): Error | undefined {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  /** A failure still to be told, without telling it. */
  pendingFailure(): Error | undefined {
    return this.failure;
  }

  async close(): Promise<void> {
    await this.idle();
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private settled(seq: number): Promise<void> {
    if (this.settledSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const script = this.script.href;
    // Node 20's workers do not inherit tsx's loader: the worker registers it before importing the writer.
    // Only dynamic imports: the worker inherits the flags of its process, and under
    // `--input-type=module` (npm run bench) evaluated code is a module, where `require` does not exist.
    const loader = import.meta.resolve('tsx/esm/api');
    const boot = `import('node:worker_threads').then(({ workerData }) =>
  import(workerData.loader).then((tsx) => { tsx.register(); return import(workerData.script); }));`;
    const data: WriterData & { loader: string; script: string } = { file: this.file, loader, script };
    const worker = new Worker(boot, { eval: true, workerData: data });
    worker.unref();
    worker.on('message', (reply: WriteReply) => this.settle(reply));
    worker.on('error', (error) => this.lose(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.lose(new Error(`the read store's writer thread exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: WriteReply): void {
    this.started = true;
    if (!reply.ok && !reply.skipped) this.fail(new WriteBehindError(reply.message, reply.code));
    this.forget(reply.seq);
    this.settledSeq = reply.seq;
    this.wakeWaiters();
  }

  /** Every batch in flight is lost with the thread; the next batch starts a new one. */
  private lose(error: Error): void {
    this.worker = undefined;
    if (!this.started) this.usable = false;
    if (this.settledSeq === this.lastSeq) return;
    this.fail(error);
    this.settledSeq = this.lastSeq;
    this.keysOf.clear();
    this.wakeWaiters();
  }

  /** The batches after a failed one were computed on top of it: their documents are forgotten too. */
  private fail(error: Error): void {
    this.failure ??= error;
    this.epoch += 1;
    this.unwritten.clear();
  }

  private forget(seq: number): void {
    for (const [table, id] of this.keysOf.get(seq) ?? []) {
      const docs = this.unwritten.get(table);
      if (docs?.get(id)?.seq === seq) docs.delete(id);
    }
    this.keysOf.delete(seq);
  }

  private wakeWaiters(): void {
    if (this.settledSeq === this.lastSeq) this.worker?.unref();
    const ready = this.waiters.filter((waiter) => waiter.seq <= this.settledSeq);
    this.waiters = this.waiters.filter((waiter) => waiter.seq > this.settledSeq);
    for (const waiter of ready) waiter.resolve();
  }
}
