import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Bounds of one sandboxed command. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Address space for the command and its children (`ulimit -v`). */
  memoryBytes: number;
  /** Output kept; the rest is dropped and the result says so. */
  maxOutputBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { timeoutMs: 10_000, memoryBytes: 512 * 1024 * 1024, maxOutputBytes: 64 * 1024 };

export interface SandboxResult {
  exitCode: number;
  output: string;
  truncated: boolean;
  timedOut: boolean;
}

/** Why commands cannot run sandboxed here: an operator reads it in the session. */
export class SandboxUnavailable extends Error {}

const BWRAP = '/usr/bin/bwrap';

/**
 * The filesystem a command sees: the system read-only, its workspace the only writable path
 * (mounted at /workspace), a private /tmp, no network (`--unshare-all` drops it with the other
 * namespaces) and no environment but PATH and HOME.
 */
function bwrapArgs(workspace: string, command: string, memoryBytes: number): string[] {
  const merged = (path: string) => (existsSync(`/usr${path}`) ? ['--symlink', `usr${path}`, path] : []);
  return [
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
    '--tmpfs', '/tmp',
    '--bind', workspace, '/workspace',
    '--chdir', '/workspace',
    '--clearenv',
    '--setenv', 'PATH', '/usr/local/bin:/usr/bin:/bin',
    '--setenv', 'HOME', '/workspace',
    '/bin/sh', '-c', `ulimit -v ${Math.floor(memoryBytes / 1024)}; ${command}`,
  ];
}

function spawnCollect(args: string[], limits: SandboxLimits): Promise<SandboxResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(BWRAP, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const keep = (chunk: Buffer) => {
      if (size >= limits.maxOutputBytes) {
        truncated = true;
        return;
      }
      chunks.push(chunk.subarray(0, limits.maxOutputBytes - size));
      truncated ||= chunk.length > limits.maxOutputBytes - size;
      size += Math.min(chunk.length, limits.maxOutputBytes - size);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limits.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new SandboxUnavailable(error.message));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 137 : 1), output: Buffer.concat(chunks).toString('utf8'), truncated, timedOut });
    });
  });
}

let probed: Promise<string | null> | undefined;

/** Null when bubblewrap can run here; otherwise why not (not installed, no user namespaces…). Probed once. */
export function sandboxProblem(): Promise<string | null> {
  probed ??= (async () => {
    if (!existsSync(BWRAP)) return 'bubblewrap (bwrap) is not installed';
    try {
      const probe = await spawnCollect(bwrapArgs('/tmp', 'true', DEFAULT_LIMITS.memoryBytes), DEFAULT_LIMITS);
      return probe.exitCode === 0 ? null : probe.output.trim() || `bwrap exited with ${probe.exitCode}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  })();
  return probed;
}

/** Runs a shell command in `workspace` inside bubblewrap, within the limits; throws SandboxUnavailable where bwrap cannot run. */
export async function runSandboxed(workspace: string, command: string, limits: SandboxLimits = DEFAULT_LIMITS): Promise<SandboxResult> {
  const problem = await sandboxProblem();
  if (problem !== null) throw new SandboxUnavailable(problem);
  return spawnCollect(bwrapArgs(workspace, command, limits.memoryBytes), limits);
}
