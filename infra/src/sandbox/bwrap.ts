import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The bounds of one sandboxed command (docs/decisions.md, "Sandbox limits"). A command that passes
 * one is stopped and its result names the limit.
 */
/** Wall-clock time before the command and everything it started are killed. */
export const SANDBOX_TIME_LIMIT_MS = 10_000;
/** Output kept (stdout and stderr together); one byte more and the command is killed. */
export const SANDBOX_OUTPUT_LIMIT_BYTES = 64 * 1024;
/**
 * Writable memory of each process of the command (`RLIMIT_DATA`: heap and private writable mappings).
 * Not the address space: V8 and other runtimes reserve gigabytes of it up front without using it, so
 * `node` could not even start under an address-space bound of this size.
 */
export const SANDBOX_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024;
/** Processes and threads the command may have at once (`RLIMIT_NPROC`, beyond those its user already has). */
export const SANDBOX_PROCESS_LIMIT = 64;
/**
 * What the workspace may hold on disk, all files together, and what one file may be (`RLIMIT_FSIZE`,
 * which binds /tmp too). The total is measured while the command runs, so it may pass by what a
 * command writes in one look (`DISK_LOOK_MS`); one file never passes it.
 */
export const SANDBOX_DISK_LIMIT_BYTES = 64 * 1024 * 1024;
/** Entries (files, directories, links) the workspace may hold: a million empty files fill a disk's inodes, not its bytes. */
export const SANDBOX_ENTRY_LIMIT = 10_000;
/** The private /tmp is a tmpfs of this size (bwrap's default is half the host's memory). */
export const SANDBOX_TMP_LIMIT_BYTES = 64 * 1024 * 1024;
const DISK_LOOK_MS = 200;

export interface SandboxLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  memoryBytes: number;
  processes: number;
  diskBytes: number;
  entries: number;
  tmpBytes: number;
}

export const SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: SANDBOX_TIME_LIMIT_MS,
  maxOutputBytes: SANDBOX_OUTPUT_LIMIT_BYTES,
  memoryBytes: SANDBOX_MEMORY_LIMIT_BYTES,
  processes: SANDBOX_PROCESS_LIMIT,
  diskBytes: SANDBOX_DISK_LIMIT_BYTES,
  entries: SANDBOX_ENTRY_LIMIT,
  tmpBytes: SANDBOX_TMP_LIMIT_BYTES,
};

/** Which bound stopped a command; `stopped` is its caller's abort (a user stopped the session). */
export type SandboxLimit = 'time' | 'output' | 'memory' | 'processes' | 'disk' | 'stopped';

export interface SandboxResult {
  exitCode: number;
  output: string;
  /** Null when the command ended by itself. */
  limit: SandboxLimit | null;
}

/** `missing`: no bwrap at the path; `refused`: bwrap is there but cannot build a sandbox (no user namespaces…). */
export type SandboxProblemKind = 'missing' | 'refused';

/** Why commands cannot run sandboxed here; nothing is run unsandboxed instead. */
export class SandboxUnavailable extends Error {
  constructor(
    readonly kind: SandboxProblemKind,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** A command no process can be given: an argument cannot hold a NUL character. Nothing was run. */
export class UnrunnableCommand extends Error {
  constructor() {
    super('the command holds a NUL character, which no process argument can carry');
  }
}

/**
 * The kernel's words when a bound enforced by a resource limit is hit: the command sees a refused
 * allocation or fork and says so; the sandbox stops it there rather than let it limp on.
 */
const EXHAUSTED: Array<[SandboxLimit, RegExp]> = [
  ['processes', /Cannot fork|fork: (retry: )?Resource temporarily unavailable|can't fork|BlockingIOError: \[Errno 11\]/],
  ['memory', /Cannot allocate memory|MemoryError|out of memory|std::bad_alloc|memory exhausted|Array buffer allocation failed/i],
  ['disk', /No space left on device|File size limit exceeded|File too large|ENOSPC|EFBIG/],
];

/** Bytes on disk (allocated blocks, so a sparse file counts what it uses) and entries under `root`; stops counting past the bounds. */
export function diskUse(root: string, bounds: { bytes: number; entries: number }): { bytes: number; entries: number } {
  let bytes = 0;
  let entries = 0;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (bytes > bounds.bytes || entries > bounds.entries) return;
      const path = `${dir}/${name}`;
      try {
        const stat = lstatSync(path);
        entries++;
        bytes += stat.blocks * 512;
        if (stat.isDirectory()) walk(path);
      } catch {
        // Removed while we looked.
      }
    }
  };
  walk(root);
  return { bytes, entries };
}

/**
 * As root (whom a resource limit does not bind) each workspace's commands run as a user id of their
 * own, outside /etc/passwd, so the processes of one sandbox never count against another's limit and
 * the files a step leaves are its next step's to change.
 */
const SANDBOX_UIDS = { first: 1_000_000, count: 65_536 };
const uidFor = (workspace: string) => SANDBOX_UIDS.first + (createHash('sha256').update(workspace).digest().readUInt32BE(0) % SANDBOX_UIDS.count);
const runningAsRoot = () => process.getuid?.() === 0;

/** Tasks (processes and threads) the user `uid` has now, which `RLIMIT_NPROC` counts against the limit too. */
function tasksOf(uid: number): number {
  let count = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid) count += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}

/**
 * Runs shell commands in bubblewrap: the system read-only, one workspace the only writable path
 * (mounted at /workspace), a private /tmp, no network (`--unshare-all` drops it with the other
 * namespaces), no environment but PATH and HOME, and the limits above. The bwrap binary is
 * injectable so the paths where it is missing or refused can be tested.
 */
export class Sandbox {
  private probed: Promise<SandboxUnavailable | null> | undefined;
  readonly bwrapPath: string;
  readonly limits: SandboxLimits;

  constructor(options: { bwrapPath?: string; limits?: Partial<SandboxLimits> } = {}) {
    this.bwrapPath = options.bwrapPath ?? '/usr/bin/bwrap';
    this.limits = { ...SANDBOX_LIMITS, ...options.limits };
  }

  /** Null when commands can run sandboxed here; otherwise why not. Probed once, by running `true` the way every command runs. */
  problem(): Promise<SandboxUnavailable | null> {
    this.probed ??= (async () => {
      if (!existsSync(this.bwrapPath)) return new SandboxUnavailable('missing', `bubblewrap (bwrap) is not installed at ${this.bwrapPath}`);
      try {
        // The probe's workspace is the host's /tmp, which is not the probe's to measure.
        const probe = await this.spawn('/tmp', 'true', this.limits, { measure: false });
        return probe.exitCode === 0 ? null : new SandboxUnavailable('refused', probe.output.trim() || `bwrap exited with ${probe.exitCode}`);
      } catch (error) {
        return error instanceof SandboxUnavailable ? error : new SandboxUnavailable('refused', String(error));
      }
    })();
    return this.probed;
  }

  /**
   * Runs `command` in `workspace`; throws SandboxUnavailable where bwrap cannot, and UnrunnableCommand
   * for a command no process could be given (in both cases nothing runs).
   */
  async run(workspace: string, command: string, options: { signal?: AbortSignal } = {}): Promise<SandboxResult> {
    if (command.includes('\0')) throw new UnrunnableCommand();
    const problem = await this.problem();
    if (problem !== null) throw problem;
    if (runningAsRoot()) chownSync(workspace, uidFor(workspace), uidFor(workspace));
    return this.spawn(workspace, command, this.limits, { measure: true, ...(options.signal && { signal: options.signal }) });
  }

  /**
   * `prlimit` sets the process bound on what it starts; `setpriv` ties it to this process's life
   * and, as root, drops to the workspace's own user. The shell inside sets the memory bound, so
   * bwrap itself is not bound by it.
   */
  private argv(workspace: string, command: string, limits: SandboxLimits): string[] {
    const root = runningAsRoot();
    const uid = root ? uidFor(workspace) : process.getuid!();
    const merged = (path: string) => (existsSync(`/usr${path}`) ? ['--symlink', `usr${path}`, path] : []);
    return [
      'prlimit',
      `--nproc=${limits.processes + tasksOf(uid)}`,
      `--fsize=${limits.diskBytes}`,
      '--',
      'setpriv',
      // A worker killed outright takes its commands with it, since the time limit's timer dies with it
      // (from the moment setpriv has run: a kill in the first milliseconds of a spawn escapes this).
      '--pdeathsig', 'KILL',
      ...(root ? [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups'] : []),
      '--',
      this.bwrapPath,
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--ro-bind', '/usr', '/usr',
      ...merged('/bin'),
      ...merged('/lib'),
      ...merged('/lib64'),
      ...merged('/sbin'),
      '--proc', '/proc',
      '--dev', '/dev',
      '--size', String(limits.tmpBytes), '--tmpfs', '/tmp',
      '--bind', workspace, '/workspace',
      '--chdir', '/workspace',
      '--clearenv',
      '--setenv', 'PATH', '/usr/local/bin:/usr/bin:/bin',
      '--setenv', 'HOME', '/workspace',
      '/bin/sh', '-c', `ulimit -d ${Math.floor(limits.memoryBytes / 1024)}; ${command}`,
    ];
  }

  private spawn(workspace: string, command: string, limits: SandboxLimits, { measure, signal }: { measure: boolean; signal?: AbortSignal }): Promise<SandboxResult> {
    const [program, ...args] = this.argv(workspace, command, limits);
    return new Promise((resolve, reject) => {
      const child = spawn(program!, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const chunks: Buffer[] = [];
      let size = 0;
      let limit: SandboxLimit | null = null;
      // bwrap's --die-with-parent takes the sandbox down with it; the group kill covers prlimit and setpriv before they exec.
      const stop = (why: SandboxLimit) => {
        limit ??= why;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const keep = (chunk: Buffer) => {
        if (limit === 'output') return;
        const room = limits.maxOutputBytes - size;
        chunks.push(chunk.subarray(0, room));
        size += Math.min(chunk.length, room);
        if (chunk.length > room) return stop('output');
        const text = chunk.toString('utf8');
        for (const [bound, words] of EXHAUSTED) if (words.test(text)) return stop(bound);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const timer = setTimeout(() => stop('time'), limits.timeoutMs);
      const overDisk = () => {
        if (!measure) return false;
        const use = diskUse(workspace, { bytes: limits.diskBytes, entries: limits.entries });
        return use.bytes > limits.diskBytes || use.entries > limits.entries;
      };
      const looking = setInterval(() => overDisk() && stop('disk'), DISK_LOOK_MS);
      const onAbort = () => stop('stopped');
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (error) => {
        clearTimeout(timer);
        clearInterval(looking);
        signal?.removeEventListener('abort', onAbort);
        reject(new SandboxUnavailable('missing', error.message));
      });
      child.on('close', (code, killed) => {
        clearTimeout(timer);
        clearInterval(looking);
        // What was written between the last look and the end counts too.
        if (limit === null && overDisk()) limit = 'disk';
        signal?.removeEventListener('abort', onAbort);
        resolve({ exitCode: code ?? (killed ? 137 : 1), output: Buffer.concat(chunks).toString('utf8'), limit });
      });
    });
  }
}

/** The sandbox of this machine's bubblewrap, for callers given no other. */
export const defaultSandbox = new Sandbox();
