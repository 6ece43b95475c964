import type { Client } from './app.ts';

/** Polls an extraction until it ends, as the client does; its final status. */
export async function extractionResult(user: Client, extractionId: string, timeoutMs = 30_000): Promise<{ status: string; cognition_id: string | null; error: string | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await user.request('GET', `/backend/api/cognition/extractions/${extractionId}`);
    if (body.status === 'completed' || body.status === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`extraction ${extractionId} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Writes the notes and draws a cognition from them through the API; the cognition's id. */
export async function cognitionFromNotes(user: Client, notes: Array<{ name: string; content: string }>): Promise<string> {
  const noteIds: string[] = [];
  for (const note of notes) noteIds.push((await user.request('POST', '/backend/api/notes', note)).body.id);
  const started = await user.request('POST', '/backend/api/cognition/extract', { note_ids: noteIds });
  if (started.status !== 202) throw new Error(`extract: ${started.status} ${JSON.stringify(started.body)}`);
  const result = await extractionResult(user, started.body.extraction_id);
  if (!result.cognition_id) throw new Error(`extraction failed: ${result.error}`);
  return result.cognition_id;
}

export const BATTERY_NOTES = [
  { name: '钠电池走访', content: '钠离子电池在零下二十度仍能放电，低温性能好。钠离子电池的成本比锂电池低三成。储能电站更看重钠离子电池的成本。' },
  { name: '储能政策', content: '新型储能的装机规模去年翻了一番。储能电站的招标开始要求低温性能指标。钠离子电池有望在储能电站率先规模应用。' },
];
