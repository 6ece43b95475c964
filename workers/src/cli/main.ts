/**
 * The Scriptorium command-line assistant. Every session is recorded as a trajectory and uploaded
 * to the user's account, where /cli/trajectories lists it.
 *
 *   scriptorium login [--server URL] [--no-browser]         (OAuth in the browser: PKCE, a loopback redirect)
 *   scriptorium login --password [--server URL] [--username NAME]   (headless: prompt or SCRIPTORIUM_PASSWORD)
 *   scriptorium chat  [--project NAME] [--allow-browser-commands]   (a line asks; `!cmd` runs a command; /help; /exit or Ctrl-C ends)
 *
 * In a chat the assistant may propose a command (the `run_command` tool); it runs in the user's own
 * shell, unsandboxed, so only once the person at the terminal approves it (`y`). Whoever holds a token
 * of the account can reach the browser's side (send a message the assistant turns into a proposal,
 * approve it, send a command), so an approval or a command from the browser asks the terminal too,
 * and runs unasked only in a chat started with `--allow-browser-commands`; a refusal from the browser
 * needs no confirming.
 *   scriptorium run   [--project NAME] -- <command…>         (runs one command and records it: several arguments
 *                                                           run as given, with no shell; one is a command line for the shell)
 *
 * Each session is also an AI-engineer session, watched live at /engineer/<id>; commands, messages and
 * answers to proposals sent from the browser there are polled and handled here, and their results posted back.
 *   scriptorium whoami | logout
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { OpenAICompatibleProvider } from '@scriptorium/infra/model/openai';
import type { EngineerCommandDto, EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { commandFromArgs, commandLine } from './command.ts';
import { EngineerRecorder, POLL_MS } from './engineer.ts';
import { cliLanguage, cliMessages, withoutLangFlag } from './messages.ts';
import { authorize, CLI_SCOPE, CLIENT_ID, discover, OAuthFailure, refresh, revoke, type Tokens } from './oauth.ts';
import type { RunAnswerer } from '@scriptorium/domain/protocol/trajectories';
import { RecordedSession } from './session.ts';
import { Terminal } from './terminal.ts';

interface Saved {
  server: string;
  username: string;
  token: string;
  /** Signed in through OAuth: the refresh token and where to use it; the access token's expiry. */
  refresh_token?: string;
  expires_at?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
}

// The language is settled before anything is said; `--lang` is no command's own option.
const { flag: langFlag, rest: argv } = withoutLangFlag(process.argv.slice(2));
const say = cliMessages(cliLanguage(langFlag, process.env));

const configPath = () => process.env.SCRIPTORIUM_CONFIG ?? join(homedir(), '.scriptorium', 'config.json');
const out = (text: string) => process.stdout.write(text);
function fail(message: string): never {
  process.stderr.write(`scriptorium: ${message}\n`);
  process.exit(1);
}

function loadSaved(): Saved {
  try {
    return JSON.parse(readFileSync(configPath(), 'utf8')) as Saved;
  } catch {
    return fail(say.notSignedIn);
  }
}

function save(saved: Saved): void {
  mkdirSync(dirname(configPath()), { recursive: true, mode: 0o700 });
  writeFileSync(configPath(), JSON.stringify(saved), { mode: 0o600 });
  chmodSync(configPath(), 0o600);
}

const withTokens = (saved: Saved, tokens: Tokens, now = Date.now()): Saved => ({
  ...saved,
  token: tokens.access_token,
  refresh_token: tokens.refresh_token,
  expires_at: new Date(now + tokens.expires_in * 1000).toISOString(),
});

/** Trades the refresh token for new tokens (it rotates, so the new one is saved at once). */
async function renew(saved: Saved): Promise<void> {
  if (!saved.refresh_token || !saved.token_endpoint) fail(say.signInAgain);
  const tokens = await refresh(saved.token_endpoint, saved.refresh_token, say).catch((error: unknown) =>
    fail(error instanceof OAuthFailure ? say.signInAgainBecause(error.message) : say.signInAgain),
  );
  Object.assign(saved, withTokens(saved, tokens));
  save(saved);
}

/** An access token that will outlive the next request: renewed a minute before it expires. */
async function fresh(saved: Saved): Promise<void> {
  if (saved.refresh_token && saved.expires_at && Date.parse(saved.expires_at) - Date.now() < 60_000) await renew(saved);
}

async function api(saved: Saved, path: string, init: RequestInit = {}): Promise<Response> {
  await fresh(saved);
  const send = () => fetch(new URL(`/backend${path}`, saved.server), { ...init, headers: { ...init.headers, authorization: `Bearer ${saved.token}` } });
  let response = await send();
  // The server may have ended the token early (a restart of the clock, a revoked grant): one renewal, then give up.
  if (response.status === 401 && saved.refresh_token) {
    await renew(saved);
    response = await send();
  }
  if (response.status === 401) fail(say.signInAgain);
  return response;
}

let terminal: Terminal | undefined;
/** Made when first asked for: a command with nothing to ask leaves stdin alone. */
const theTerminal = () => (terminal ??= new Terminal(process.stdin, process.stdout));

/** The next line of input as the answer; input that ends first is an error rather than a wait that never ends. */
async function answer(question: string, missing: string, secret = false): Promise<string> {
  const line = await theTerminal().ask(question, secret);
  if (line === null) fail(say.inputEnded(missing));
  return line.trim();
}

async function login(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { server: { type: 'string' }, username: { type: 'string' }, password: { type: 'boolean', default: false }, browser: { type: 'boolean', default: true } },
    allowNegative: true,
  });
  const server = values.server ?? process.env.SCRIPTORIUM_SERVER ?? 'http://localhost:8080';
  if (values.password) return passwordLogin(server, values.username);
  try {
    const metadata = await discover(server, say);
    const tokens = await authorize(metadata, { openBrowser: values.browser, say: out, texts: say });
    const me = (await fetch(new URL('/backend/auth/me', server), { headers: { authorization: `Bearer ${tokens.access_token}` } }).then((response) => response.json())) as { username?: string };
    const saved = withTokens(
      { server, username: me.username ?? '', token: '', token_endpoint: metadata.token_endpoint, ...(metadata.revocation_endpoint && { revocation_endpoint: metadata.revocation_endpoint }) },
      tokens,
    );
    save(saved);
    out(say.signedIn(server, saved.username));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/** The prompt, for machines with no browser to hand: a sign-in of its own, without refresh, listed with the apps. */
async function passwordLogin(server: string, name: string | undefined): Promise<void> {
  const username = name ?? process.env.SCRIPTORIUM_USERNAME ?? (await answer(say.usernamePrompt, say.username));
  const password = process.env.SCRIPTORIUM_PASSWORD ?? (await answer(say.passwordPrompt, say.password, true));
  // Named as the app and the machine it runs on, the sign-in is listed under "Authorised apps" on the web page; its token gets the assistant's scopes only.
  const form = new URLSearchParams({ username, password, client_id: CLIENT_ID, device_name: hostname(), scope: CLI_SCOPE });
  const response = await fetch(new URL('/backend/auth/login', server), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; detail?: unknown };
  if (!response.ok || !body.access_token) fail(typeof body.detail === 'string' ? body.detail : say.signInFailed(response.status));
  save({ server, username, token: body.access_token });
  out(say.signedIn(server, username));
}

/**
 * Ends the saved sign-in on the server, so a copy of the token (or of the refresh token, in a backup)
 * is worth nothing: an OAuth login revokes its grant (RFC 7009), a `login --password` signs out with
 * its token. Null once the server confirmed (a 401 says the token had already ended there), else why not.
 */
async function endOnServer(saved: Saved): Promise<string | null> {
  const oauth = saved.refresh_token !== undefined && saved.revocation_endpoint !== undefined;
  const ending = oauth
    ? revoke(saved.revocation_endpoint!, saved.refresh_token!)
    : fetch(new URL('/backend/auth/logout', saved.server), { method: 'POST', headers: { authorization: `Bearer ${saved.token}` } });
  const response = await ending.catch(() => null);
  if (response === null) return say.serverUnreachable(saved.server);
  return response.ok || (!oauth && response.status === 401) ? null : say.serverAnswered(response.status);
}

async function upload(saved: Saved, session: RecordedSession, sessionId: string, project: string, title?: string): Promise<void> {
  try {
    const response = await api(saved, '/engineer/trajectory/files', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { session_id: sessionId, project_name: project }, events: session.events, ...(title !== undefined && { title }) }),
    });
    if (!response.ok) warn(say.uploadFailedStatus(response.status));
  } catch (error) {
    warn(say.uploadFailed(error instanceof Error ? error.message : String(error)));
  }
}

const warn = (message: string) => process.stderr.write(`scriptorium: ${message}\n`);

/** A recorded session mirrored live into an engineer session the browser can watch and steer. */
function openSession(saved: Saved, session: { title: string; task_description: string }): { session: RecordedSession; engineer: EngineerRecorder; sessionId: string } {
  const sessionId = randomUUID();
  const engineer = new EngineerRecorder((path, init) => api(saved, path, init), sessionId, `cli-${hostname()}-${process.pid}`, session, (reason) => warn(say.syncFailed(reason)));
  // Each model call carries the token as it is then: a long chat outlives an OAuth access token.
  const authorised: typeof fetch = async (input, init) => {
    await fresh(saved);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${saved.token}`);
    return fetch(input, { ...init, headers });
  };
  const model = new OpenAICompatibleProvider({ baseUrl: new URL('/backend/engineer/v1', saved.server).toString(), model: 'scriptorium', fetch: authorised, maxAttempts: 2 });
  return { session: new RecordedSession({ write: out, clock: () => new Date(), recorded: (event) => void engineer.record(event) }, model, say), engineer, sessionId };
}

async function chat(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { project: { type: 'string' }, 'allow-browser-commands': { type: 'boolean', default: false } } });
  const saved = loadSaved();
  const project = values.project ?? basename(process.cwd());
  const browserMayRun = values['allow-browser-commands'];
  const { session, engineer, sessionId } = openSession(saved, { title: say.chatTitle(project), task_description: say.chatTask(project) });
  out(say.chatGreeting(project));
  if (browserMayRun) out(say.browserMayRun);
  out(say.watchLive(new URL(`/engineer/${sessionId}`, saved.server).toString()));
  const terminal = theTerminal();
  const { tty, lines } = terminal;
  const showPrompt = () => tty && terminal.show('scriptorium> ');

  // Typed lines and browser commands take turns, one at a time, in arrival order.
  let turn: Promise<unknown> = Promise.resolve();
  const take = (work: () => Promise<unknown>) => (turn = turn.then(work).catch((error) => warn(error instanceof Error ? error.message : String(error))));
  let ending: EngineerSessionStatus | null = null;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const finish = (status: EngineerSessionStatus) => {
    if (ending) return;
    ending = status;
    terminal.close();
    finished();
  };

  // The proposal waiting for a person; the first answer, from the terminal or the browser, settles it,
  // except the browser's approval in a chat that did not opt in: the terminal's answer still decides.
  let pending: { id: string; settle: (verdict: Verdict) => void; confirm: (commandId: string) => void } | null = null;
  const approval = (id: string, command: string): Promise<Verdict> =>
    new Promise((resolve) => {
      terminal.show(say.proposed(command));
      const typed = lines.next(true);
      // The browser's approval waiting for the terminal's, answered with what came of it.
      let browserApproval: string | undefined;
      pending = {
        id,
        settle: (verdict) => {
          pending = null;
          typed.cancel();
          resolve(browserApproval === undefined || verdict.commandId !== undefined ? verdict : { ...verdict, commandId: browserApproval });
        },
        confirm: (commandId) => {
          browserApproval = commandId;
          out(say.browserApproved);
          terminal.show(say.proposed(command));
        },
      };
      void typed.line.then((line) => {
        if (pending?.id !== id) return;
        // A piped answer is not echoed: end the question's line before what follows.
        if (line !== null && !tty) out('\n');
        pending.settle(line === null ? { approved: false, by: 'ended' } : { approved: YES.test(line.trim()), by: 'terminal' });
      });
    });

  // A command the browser sent, waiting for the terminal's answer; a stop from the browser answers no.
  let browserRunAsked: (() => void) | null = null;
  const terminalAllows = async (command: string): Promise<boolean> => {
    if (browserMayRun) return true;
    terminal.show(say.fromBrowser(command));
    const typed = lines.next(true);
    const line = await new Promise<string | null>((resolve) => {
      browserRunAsked = () => {
        typed.cancel();
        resolve(null);
      };
      void typed.line.then(resolve);
    });
    browserRunAsked = null;
    if (line !== null && !tty) out('\n');
    return line !== null && YES.test(line.trim());
  };

  /** Asks the assistant; a command it proposes runs once a person approves it. What ran, or the answer, is the outcome. */
  const converse = async (question: string): Promise<Outcome> => {
    const proposal = await session.ask(question);
    const answer = session.events.findLast((event) => event.event_type === 'assistant_response')?.content ?? '';
    const id = engineer.pendingProposal;
    if (!proposal || !id) return { status: 'completed', result: answer, error_message: null };
    const verdict = await approval(id, proposal);
    if (verdict.by === 'browser') out(say.browserVerdict(verdict.approved));
    session.answer(proposal, verdict.approved, verdict.by);
    const outcome: Outcome = verdict.approved ? await runOutcome(session, proposal) : { status: 'completed', result: say.declinedResult(proposal), error_message: null };
    if (!verdict.approved && verdict.by !== 'browser') out(say.declined);
    // A browser approval the terminal turned down failed, as a browser command the terminal refused does.
    const refusedHere = !verdict.approved && verdict.by !== 'browser';
    if (verdict.commandId) await engineer.result(verdict.commandId, refusedHere ? { status: 'failed', result: '', error_message: say.terminalRefused } : outcome);
    return outcome;
  };

  let lastSeq = 0;
  let polling = false;
  const poll = setInterval(() => {
    if (ending || polling) return;
    polling = true;
    void (async () => {
      for (const command of await engineer.commands(lastSeq)) {
        lastSeq = command.seq;
        if (command.command_type === 'approve' || command.command_type === 'reject') {
          // Answers go straight to the waiting proposal, past the turn that waits for them; a late one is ignored.
          if (pending?.id === command.content) {
            if (command.command_type === 'approve' && !browserMayRun) pending.confirm(command.id);
            else pending.settle({ approved: command.command_type === 'approve', by: 'browser', commandId: command.id });
          } else await engineer.result(command.id, { status: 'failed', result: '', error_message: say.alreadyAnswered });
          continue;
        }
        if (command.command_type === 'stop') {
          pending?.settle({ approved: false, by: 'ended' });
          browserRunAsked?.();
        }
        take(async () => {
          if (ending) return;
          await runBrowserCommand(session, engineer, command, { converse, allows: terminalAllows, stop: () => finish('stopped') });
          showPrompt();
        });
      }
    })()
      .catch((error) => warn(error instanceof Error ? error.message : String(error)))
      .finally(() => (polling = false));
  }, POLL_MS);

  // The chat loop: one line at a time, each waiting for the turn before it. Lines piped in before
  // the end of input are all answered; Ctrl-C or a stop from the browser ends it at once.
  void (async () => {
    for (;;) {
      showPrompt();
      const line = (await lines.next().line)?.trim();
      if (ending) return;
      if (line === undefined || line === '/exit' || line === '/quit') return finish('completed');
      if (line === '/help') out(say.chatHelp);
      if (!line || line === '/help') continue;
      await take(async () => {
        if (line.startsWith('!')) await session.run(line.slice(1).trim());
        else await converse(line);
        await upload(saved, session, sessionId, project);
      });
    }
  })();
  // Ctrl-C ends the session as finished rather than leaving it running in the browser.
  terminal.onInterrupt(() => finish('completed'));
  process.once('SIGINT', () => finish('completed'));

  await done;
  clearInterval(poll);
  await turn;
  session.end();
  await engineer.end(ending ?? 'completed');
  await upload(saved, session, sessionId, project);
  await engineer.flush();
  process.stdin.destroy();
  out(say.recorded(session.events.length, new URL('/cli/trajectories', saved.server).toString()));
}

interface Verdict {
  approved: boolean;
  by: RunAnswerer;
  /** The browser's approve or reject, answered with what came of it. */
  commandId?: string;
}
type Outcome = { status: 'completed' | 'failed'; result: string; error_message: string | null };

/** Runs a command and says how it went, as a command's result does. */
async function runOutcome(session: RecordedSession, command: string): Promise<Outcome> {
  const exitCode = await session.run(command);
  const output = session.events.at(-1)?.content ?? '';
  return { status: exitCode === 0 ? 'completed' : 'failed', result: output, error_message: exitCode === 0 ? null : say.exitCode(exitCode) };
}

const YES = /^(y|yes|是|好|运行)$/i;

interface BrowserCommandHandlers {
  converse: (question: string) => Promise<Outcome>;
  /** Whether the terminal lets a command the browser sent run (always, with --allow-browser-commands). */
  allows: (command: string) => Promise<boolean>;
  stop: () => void;
}

/**
 * Runs what the browser sent and answers its result once: a shell command (once the terminal allows
 * it), a message to the assistant (whose result is what the command it proposed printed, once
 * approved, or its answer), or stop.
 */
async function runBrowserCommand(session: RecordedSession, engineer: EngineerRecorder, command: EngineerCommandDto, { converse, allows, stop }: BrowserCommandHandlers): Promise<void> {
  out(`\n${say.browserLabel} ${command.command_type === 'run' ? `$ ${command.content}` : command.content || command.command_type}\n`);
  if (command.command_type === 'run') {
    if (await allows(command.content)) await engineer.result(command.id, await runOutcome(session, command.content));
    else {
      out(say.declined);
      await engineer.result(command.id, { status: 'failed', result: '', error_message: say.terminalRefused });
    }
  } else if (command.command_type === 'message') await engineer.result(command.id, await converse(command.content));
  else {
    await engineer.result(command.id, { status: 'completed', result: '', error_message: null });
    stop();
  }
}

async function run(args: string[]): Promise<void> {
  const separator = args.indexOf('--');
  const { values } = parseArgs({ args: separator === -1 ? [] : args.slice(0, separator), options: { project: { type: 'string' } } });
  const command = commandFromArgs(separator === -1 ? args : args.slice(separator + 1));
  if (!command) fail(say.runUsage);
  const saved = loadSaved();
  const project = values.project ?? basename(process.cwd());
  const title = commandLine(command);
  const { session, engineer, sessionId } = openSession(saved, { title, task_description: say.runTask(project) });
  const exitCode = await session.run(command);
  session.end();
  await engineer.end(exitCode === 0 ? 'completed' : 'failed');
  await upload(saved, session, sessionId, project, title);
  await engineer.flush();
  process.exitCode = exitCode;
}

async function whoami(): Promise<void> {
  const saved = loadSaved();
  const me = (await (await api(saved, '/auth/me')).json()) as { username?: string };
  out(`${me.username ?? saved.username} @ ${saved.server}\n`);
}

const commands: Record<string, (args: string[]) => Promise<void>> = {
  login,
  chat,
  run,
  whoami,
  logout: async () => {
    if (!existsSync(configPath())) return void out(say.signedOut);
    const saved = loadSaved();
    const untold = await endOnServer(saved);
    rmSync(configPath(), { force: true });
    if (untold === null) out(say.signedOutOnServer);
    else warn(say.signedOutLocally(untold));
  },
};

const [name, ...rest] = argv;
const command = name ? commands[name] : undefined;
// Help never needs a server or a login; `run -- cmd --help` is the command's own flag.
const before = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
if (name === 'help' || name === '--help' || name === '-h' || before.includes('--help') || before.includes('-h')) out(say.help);
else if (!command) fail(say.usage(Object.keys(commands).join('|')));
else {
  await command(rest);
  // An open reader on a terminal would keep the process waiting for input nobody is asked for.
  terminal?.close();
}
