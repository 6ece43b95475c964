import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_PASSWORD_COST, MINIMUM_PASSWORD_COST } from '../auth/passwordCost.ts';
import { MODEL_ROLES, modelProfileOverrideSchema } from '../model/profile.ts';
import { parseAllowEntry } from '../fetch/ssrf.ts';
import { parseSecretKey } from '../secrets/box.ts';

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.join(' or ')}`);

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A variable holding JSON, checked against `schema` once parsed. */
const json = <T extends z.ZodType>(schema: T, what: string) =>
  optional(
    z
      .string()
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: `must be ${what}` });
          return z.NEVER;
        }
      })
      .pipe(schema),
  );

/** The roles a model of its own may serve; `default` is LLM_MODEL's. */
const ROLES_OF_THEIR_OWN = MODEL_ROLES.filter((role) => role !== 'default');

export const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    /**
     * Seals the keys and passwords of the connections an administrator sets (AES-256-GCM): 32 bytes
     * as 64 hex digits or base64. Absent: one is generated into DATA_DIR/connections-key.
     */
    CONNECTIONS_KEY: optional(z.string().refine((value) => parseSecretKey(value) !== undefined, 'must be 32 bytes written as 64 hex digits or as base64 (openssl rand -base64 32)')),
    JWT_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
    /** PostgreSQL for the event log and the read models, unless EVENTSTORE_URL or MONGO_URL names another engine for one of them. */
    DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
    EVENTSTORE_URL: optional(url(['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrentdb+discover:'])),
    MONGO_URL: optional(url(['mongodb:', 'mongodb+srv:'])),
    MONGO_DB: z.string().default('scriptorium'),
    /** Run the read models on a standalone MongoDB, whose batches are not atomic: a retried batch counts its $inc and $push twice. */
    MONGO_ALLOW_STANDALONE: flag(false),
    REDIS_URL: optional(url(['redis:', 'rediss:'])),
    /** BullMQ's Redis key prefix, and the collab presence channel's suffix: deployments (or test runs) sharing one Redis keep apart by it. */
    QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or -').default('bull'),
    /** How long a dead worker's BullMQ job stays locked before another worker takes it over (and how often that is checked). */
    QUEUE_LOCK_SECONDS: seconds(30),
    /** `/readyz` fails below this much free space on DATA_DIR's file system. */
    READY_MIN_FREE_MB: z.coerce.number().int().min(0).default(512),
    /** `/readyz` fails when the read models are still short of a log head it saw this long ago (0: any lag at all). */
    READY_MAX_LAG_SECONDS: z.coerce.number().int().min(0).default(60),
    LLM_BASE_URL: optional(url(['http:', 'https:'])),
    LLM_API_KEY: optional(z.string()),
    LLM_MODEL: optional(z.string()),
    /** LLM_MODEL's profile where its family's is wrong: {"contextWindow","maxOutputTokens","reasoning","price"}, any of them. */
    LLM_PROFILE: json(modelProfileOverrideSchema.strict(), 'a JSON object such as {"contextWindow":32768,"maxOutputTokens":8192,"reasoning":"think_tags"}'),
    /** Other models of the same endpoint for some roles, as JSON: {"planning":"qwen-turbo","writing":"qwen-max"}. */
    LLM_ROLE_MODELS: json(
      z.partialRecord(z.enum(ROLES_OF_THEIR_OWN), z.string().trim().min(1, 'names a model')).refine((roles) => Object.keys(roles).length > 0, 'names at least one role'),
      `a JSON object from roles (${ROLES_OF_THEIR_OWN.join(', ')}) to model names`,
    ),
    /** An OpenAI-compatible embedding endpoint (its API root): research then retrieves chunks by meaning as well as by words. */
    EMBEDDING_BASE_URL: optional(url(['http:', 'https:'])),
    EMBEDDING_API_KEY: optional(z.string()),
    EMBEDDING_MODEL: z.string().trim().min(1).default('text-embedding-3-small'),
    SEARCH_URL: optional(url(['http:', 'https:'])),
    /**
     * Hosts, `host:port` or CIDR networks (comma- or space-separated) the research agent's page
     * fetcher may read although the SSRF guard refuses them: an intranet wiki, a test's page server.
     */
    FETCH_ALLOW_HOSTS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        const entries = text.split(/[\s,]+/).filter(Boolean);
        for (const entry of entries) {
          try {
            parseAllowEntry(entry);
          } catch (error) {
            ctx.addIssue({ code: 'custom', message: (error as Error).message });
            return z.NEVER;
          }
        }
        return entries;
      }),
    /** Model calls one research run may have open at once (its plan steps are researched side by side). */
    RESEARCH_MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    /** Searches and page reads one research run may have open at once. */
    RESEARCH_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(6),
    /** Model calls one worker's research runs may have open at once, all runs together, shared fairly between users. */
    RESEARCH_WORKER_MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    /** Searches and page reads one worker's research runs may have open at once, all runs together, shared fairly between users. */
    RESEARCH_WORKER_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(12),
    /** Search rounds per plan step: the planned one and the follow-ups a reflection asks for. */
    RESEARCH_MAX_ROUNDS: z.coerce.number().int().min(1).max(5).default(2),
    /** No follow-up search starts once a research run has used this many tokens. */
    RESEARCH_FOLLOW_UP_TOKENS: z.coerce.number().int().min(0).default(60_000),
    /** What a research run is reckoned to use: below it, the user is told before the run starts. */
    RESEARCH_TOKENS_ESTIMATE: z.coerce.number().int().min(0).default(40_000),
    /** Seconds a proposed research plan is shown, open to edits, before it starts by itself (0: at once); users who review plans start them. */
    PLAN_COUNTDOWN_SECONDS: z.coerce.number().int().min(0).max(300).default(8),
    SMTP_URL: optional(url(['smtp:', 'smtps:'])),
    BLOB_DIR: optional(z.string()),
    MAIL_FROM: z.string().default('Scriptorium <no-reply@scriptorium.local>'),
    ASR_BASE_URL: optional(url(['http:', 'https:'])),
    ASR_API_KEY: optional(z.string()),
    ASR_MODEL: z.string().default('whisper-1'),
    ADMIN_USERNAME: optional(z.string().min(3)),
    ADMIN_PASSWORD: optional(z.string().min(8, 'must be at least 8 characters')),
    ADMIN_EMAIL: z.string().email().default('admin@scriptorium.local'),
    TOKENS_PER_COIN: z.coerce.number().int().positive().default(1000),
    /** What one model call holds of the budget before it starts, so concurrent calls cannot overspend together. */
    BUDGET_HOLD_TOKENS: z.coerce.number().int().positive().default(8000),
    /** A hold whose reply never completes (a lost worker) stops counting after this long. */
    BUDGET_HOLD_TTL_SECONDS: seconds(1800),
    INVITE_CODE_REQUIRED: flag(false),
    EMAIL_VERIFICATION_REQUIRED: flag(false),
    EMAIL_CODE_TTL_SECONDS: seconds(600),
    EMAIL_CODE_RESEND_SECONDS: seconds(120),
    EMAIL_CODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    /**
     * argon2id's cost per password hash (RFC 9106's 64 MiB and three passes by default); never below
     * OWASP's floor of 19 MiB and two passes. Existing hashes keep verifying at the cost they were made with.
     */
    PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(MINIMUM_PASSWORD_COST.memoryKib).max(4_194_304).default(DEFAULT_PASSWORD_COST.memoryKib),
    PASSWORD_HASH_PASSES: z.coerce.number().int().min(MINIMUM_PASSWORD_COST.passes).max(20).default(DEFAULT_PASSWORD_COST.passes),
    /** Password hashes (sign-ins, registrations) that may wait for a free core; past it the request is answered 503 at once. */
    PASSWORD_HASH_MAX_WAITING: z.coerce.number().int().min(1).max(10_000).default(16),
    /** Failed logins allowed per user name and address within the window; an address alone gets five times as many. */
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
    LOGIN_WINDOW_SECONDS: seconds(900),
    /** Cap of the delay an account's failures put on its sign-ins (doubling past LOGIN_MAX_FAILURES); 0 turns it off. */
    LOGIN_MAX_DELAY_SECONDS: z.coerce.number().int().min(0).default(30),
    /** Accounts one address may register within REGISTER_WINDOW_SECONDS. */
    REGISTER_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
    REGISTER_WINDOW_SECONDS: seconds(3600),
    /** Behind one reverse proxy that appends X-Forwarded-For and sets X-Forwarded-Proto: believe those headers. */
    TRUST_PROXY: flag(false),
    /** Addresses that may read /metrics without the token (comma-separated). */
    METRICS_ALLOW: z
      .string()
      .default('127.0.0.1,::1')
      .transform((list) => list.split(',').map((address) => address.trim()).filter(Boolean)),
    /** A bearer token that opens /metrics from anywhere (for a Prometheus elsewhere). */
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    /** The origin users reach the server at (the OAuth issuer, RFC 8414); absent: the origin each request came to. */
    PUBLIC_URL: optional(url(['http:', 'https:']).transform((value) => new URL(value).origin)),
    /** How long an OAuth authorisation code may wait for its exchange (RFC 6749 §4.1.2: short-lived). */
    OAUTH_CODE_TTL_SECONDS: seconds(60),
    /** Lifetime of an access token issued to an OAuth client; its refresh token buys the next one. */
    OAUTH_ACCESS_TTL_SECONDS: seconds(3600),
    /** A refresh token unused for this long expires; each use rotates it and starts the time again. */
    OAUTH_REFRESH_TTL_SECONDS: seconds(30 * 86_400),
    /** Public OAuth clients beyond the command-line assistant, as JSON: [{"id","name","name_en"?,"redirect_uris":[…],"native"?}]. */
    OAUTH_CLIENTS: z
      .string()
      .default('[]')
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON array of clients' });
          return z.NEVER;
        }
      })
      .pipe(
        z.array(
          z.object({
            id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'client ids are 1-64 letters, digits, . _ or -'),
            name: z.string().min(1).max(80),
            name_en: z.string().min(1).max(80).optional(),
            redirect_uris: z.array(url(['http:', 'https:']).refine((value) => !value.includes('#'), 'a redirect URI has no fragment')).min(1),
            native: z.boolean().default(false),
          }),
        ),
      ),
    ROLE: z.enum(['all', 'api', 'projector', 'worker']).default('all'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TIME_ZONE: z.string().default('Asia/Shanghai').refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Shanghai'),
  })
  .superRefine((value, ctx) => {
    if ((value.ADMIN_USERNAME === undefined) !== (value.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together' });
    }
  });

export type RawConfig = z.infer<typeof configSchema>;
export type Config = Omit<RawConfig, 'JWT_SECRET' | 'DATA_DIR' | 'CONNECTIONS_KEY'> & { JWT_SECRET: string; DATA_DIR: string; CONNECTIONS_KEY: string };

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`configuration error: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): RawConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    // Inside a JSON variable, the field at fault is named too.
    const field = issue.path.slice(1).join('.');
    throw new ConfigError(String(issue.path[0] ?? 'environment'), field ? `${field}: ${issue.message}` : issue.message);
  }
  return result.data;
}

/** Reads the config and makes DATA_DIR, a persisted JWT secret and a persisted connections key exist. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw = parseConfig(env);
  const dataDir = resolve(raw.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    ...raw,
    DATA_DIR: dataDir,
    JWT_SECRET: raw.JWT_SECRET ?? persistedSecret(dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url')),
    CONNECTIONS_KEY: raw.CONNECTIONS_KEY ?? connectionsKeyFile(dataDir),
  };
}

function persistedSecret(dataDir: string, name: string, generate: () => string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = generate();
  try {
    // `wx`: of two roles starting together on one DATA_DIR, the second reads what the first wrote.
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  return secret;
}

function connectionsKeyFile(dataDir: string): string {
  const key = persistedSecret(dataDir, 'connections-key', () => randomBytes(32).toString('base64'));
  if (parseSecretKey(key) === undefined) throw new ConfigError('CONNECTIONS_KEY', `is not set and ${join(dataDir, 'connections-key')} holds no 32-byte key`);
  return key;
}
