import nodemailer from 'nodemailer';
import { ModelError } from '../model/port.ts';
import { OpenAICompatibleProvider } from '../model/openai.ts';
import type { ModelProfile } from '../model/profile.ts';
import { SearxngSearch } from '../search/searxng.ts';

/**
 * "Test connection": one minimal real call to a configured service, and what came back. Nothing is
 * sent that costs more than a token or reaches a person: the model writes one token, search runs
 * one query, SMTP says EHLO (and AUTH) and quits, speech lists its models.
 */
export interface ProbeResult {
  ok: boolean;
  latencyMs: number;
  /** What the service said, in its words and cut short: an answer's summary or its error. Never a key. */
  detail: string;
  /** The model that answered, as the server names it (model tests only). */
  model?: string;
}

export const PROBE_TIMEOUT_MS = 15_000;
const MAX_DETAIL = 240;

/** Servers sometimes quote the key they refused; the quote never leaves here. */
function scrub(text: string, secrets: Array<string | undefined>): string {
  let clean = text;
  for (const secret of secrets) if (secret && secret.length >= 4) clean = clean.split(secret).join('***');
  clean = clean.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL - 1)}…` : clean;
}

async function timed(secrets: Array<string | undefined>, call: () => Promise<{ detail: string; model?: string }>, failure: (error: unknown) => string): Promise<ProbeResult> {
  const started = performance.now();
  try {
    const { detail, model } = await call();
    return { ok: true, latencyMs: Math.round(performance.now() - started), detail: scrub(detail, secrets), ...(model !== undefined && { model }) };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), detail: scrub(failure(error), secrets) };
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function probeModel(endpoint: { baseUrl: string; model: string; apiKey?: string; profile: ModelProfile }, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const provider = new OpenAICompatibleProvider({
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    profile: endpoint.profile,
    ...(endpoint.apiKey && { apiKey: endpoint.apiKey }),
    maxAttempts: 1,
    connectTimeoutMs: timeoutMs,
    idleTimeoutMs: timeoutMs,
  });
  return timed(
    [endpoint.apiKey],
    async () => {
      const completion = await provider.complete({ messages: [{ role: 'user', content: 'Reply with OK.' }], maxTokens: 1, temperature: 0 });
      return { detail: completion.text || '(empty)', model: completion.usage.model };
    },
    (error) => (error instanceof ModelError ? [error.status, error.providerMessage ?? error.message].filter((part) => part !== undefined).join(' ') : messageOf(error)),
  );
}

export function probeSearch(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const search = new SearxngSearch({ baseUrl: url, timeoutMs });
  return timed(
    [],
    async () => {
      const hits = await search.search('Scriptorium', { limit: 3 });
      return { detail: [`${hits.length}`, ...hits.slice(0, 1).map((hit) => hit.title)].join(' · ') };
    },
    messageOf,
  );
}

/** Connects, says EHLO, authenticates when a user is named, and quits: no mail is sent. */
export function probeSmtp(url: string, password: string | undefined, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const transport = nodemailer.createTransport({ ...smtpOptions(url, password), connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  return timed([password], async () => {
    try {
      await transport.verify();
      return { detail: new URL(url).host };
    } finally {
      transport.close();
    }
  }, messageOf);
}

/** The transport options of an SMTP URL (as `SMTP_URL` is written) with the password kept apart from it. */
export function smtpOptions(url: string, password: string | undefined): { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } } {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  const user = decodeURIComponent(parsed.username);
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    ...(user && { auth: { user, pass: password ?? '' } }),
  };
}

/** Lists the speech server's models (`GET …/models`, as OpenAI and faster-whisper servers answer it). */
export function probeSpeech(speech: { baseUrl: string; model: string; apiKey?: string }, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return timed(
    [speech.apiKey],
    async () => {
      const response = await fetch(`${speech.baseUrl.replace(/\/+$/, '')}/models`, {
        headers: speech.apiKey ? { authorization: `Bearer ${speech.apiKey}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${response.status} ${text}`);
      let ids: string[] = [];
      try {
        const body = JSON.parse(text) as { data?: Array<{ id?: unknown }> };
        ids = (body.data ?? []).map((entry) => String(entry.id));
      } catch {
        throw new Error(`${response.status} ${text}`);
      }
      return { detail: `${ids.length} · ${ids.includes(speech.model) ? speech.model : ids.slice(0, 3).join(', ')}` };
    },
    messageOf,
  );
}
