import { parentPort } from 'node:worker_threads';
import { DeckError } from '../deck/port.ts';
import { readSlides } from '../deck/slides.ts';
import { normalizeText } from '../extract/decode.ts';
import { docxText } from '../extract/docx.ts';
import { ExtractError } from '../extract/errors.ts';
import type { DocumentTask, DocumentText, WorkerAnswer, WorkerRefusal } from './sandbox.ts';

/**
 * One untrusted document, read in a worker thread the DocumentSandbox started with resource limits:
 * the task comes in one message and its result or coded refusal goes back in one.
 */
async function perform(task: DocumentTask): Promise<unknown> {
  if (task.task === 'deck') return readSlides(task.bytes);
  if (task.task === 'page') return (await import('../fetch/readable.ts')).readableHtml(task.source, task.fallbackTitle);
  let read: { text: string; title?: string; pages?: number };
  switch (task.kind) {
    case 'pdf':
      read = await (await import('../extract/pdf.ts')).pdfText(task.bytes, task.maxChars);
      break;
    case 'docx':
      read = await docxText(task.bytes);
      break;
    case 'html':
      // linkedom and Readability load only in workers that read a page.
      read = (await import('../extract/html.ts')).htmlText(task.bytes);
      break;
  }
  const text = normalizeText(read.text);
  const answer: DocumentText = { ...read, text: text.length > task.maxChars ? text.slice(0, task.maxChars + 1) : text };
  return answer;
}

function refusalOf(error: unknown): WorkerRefusal | null {
  if (error instanceof DeckError) return { type: 'deck', reason: error.reason, code: error.code, params: error.params };
  if (error instanceof ExtractError) return { type: 'extract', reason: error.reason, message: error.message, code: error.code, params: error.params };
  return null;
}

parentPort!.once('message', (task: DocumentTask) => {
  perform(task).then(
    (result) => parentPort!.postMessage({ ok: true, result } satisfies WorkerAnswer),
    (error: unknown) => parentPort!.postMessage({ ok: false, refusal: refusalOf(error) } satisfies WorkerAnswer),
  );
});
