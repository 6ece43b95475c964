/**
 * What the worker's flush policy costs a token and saves the log: replies streamed by a model server
 * in its own process at three paces (a fast model, one just slower than the 16 ms flush interval,
 * one that pauses to think), each read (a) straight from the model provider and (b) end to end at a
 * socket. The added latency is measured per token, its arrival at the socket minus the time the model
 * wrote it, and its p50/p95 are taken over those differences (never one percentile minus another);
 * beside it, the same per-token differences read straight from the model provider (a), what the HTTP
 * hop alone costs, in the same run. Also text events per reply and the most events that reached the
 * socket within any 16 ms (socket arrival times, so jitter can only crowd them, not space them out).
 * Targets: added p95 ≤ 25 ms, one event per 16 ms per reply.
 * Run: npx tsx tests/bench/tokenLatency.ts
 */
import { pathToFileURL } from 'node:url';
import { FLUSH_INTERVAL_MS } from '@scriptorium/workers/agents/replyWriter';
import { answerTokens, direct, endToEnd, ms, percentile, question, withStreamingApp, type Sample } from './streaming.ts';
import { sized } from './short.ts';

const PACES = [
  { delayMs: 2, tokens: sized(600, 60) },
  { delayMs: 20, tokens: sized(120, 12) },
  { delayMs: 60, tokens: sized(40, 4) },
];
const RUNS = sized(3, 1);

/** The most of `times` (sorted) that fall within any window of `windowMs`. */
function densest(times: number[], windowMs: number): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while (times[to]! - times[from]! >= windowMs) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

export function run(): Promise<void> {
  return withStreamingApp('bench_token_latency', async (server, user, socket) => {
    await endToEnd(user, socket, server, question('warm-up', 100), answerTokens(100));
    console.log(`token latency: model write → socket, ${RUNS} replies per pace, tokens pooled; flush interval ${FLUSH_INTERVAL_MS} ms`);
    for (const { delayMs, tokens: count } of PACES) {
      const tokens = answerTokens(count);
      const directSamples: Sample[] = [];
      const endToEndSamples: Sample[] = [];
      for (let i = 1; i <= RUNS; i++) {
        // Interleaved, so that whatever the machine does meanwhile weighs on both paths alike.
        directSamples.push(await direct(server, question(`direct ${delayMs} ms ${i}`, count), tokens));
        endToEndSamples.push(await endToEnd(user, socket, server, question(`socket ${delayMs} ms ${i}`, count), tokens, delayMs));
      }
      const a = directSamples.flatMap((sample) => sample.latencies);
      const b = endToEndSamples.flatMap((sample) => sample.latencies);
      const events = endToEndSamples.map((sample) => sample.events!.length);
      const crowded = Math.max(...endToEndSamples.map((sample) => densest(sample.events!, FLUSH_INTERVAL_MS)));
      console.log(`  ${count} tokens ${delayMs} ms apart:`);
      console.log(`    added per token, model write → socket (b): p50 ${ms(percentile(b, 50), 1)}, p95 ${ms(percentile(b, 95), 1)} over ${b.length} tokens (target p95 ≤ 25 ms)`);
      console.log(`    baseline, model write → provider client (a): p50 ${ms(percentile(a, 50), 1)}, p95 ${ms(percentile(a, 95), 1)} over ${a.length} tokens`);
      console.log(`    text events per reply: ${events.join(', ')} (${(count / Math.max(...events)).toFixed(1)}+ tokens each); most within ${FLUSH_INTERVAL_MS} ms at the socket: ${crowded}`);
    }
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
