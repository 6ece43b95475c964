import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { owned } from './children.ts';

/** Whether this machine has a redis-server binary, for suites that start and stop their own Redis. */
export const haveRedisServer = await new Promise<boolean>((resolve) => {
  const probe = owned(spawn('redis-server', ['--version'], { stdio: 'ignore' }));
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A throwaway redis-server on `port` with the given options, resolved once it accepts connections; it dies with the test. */
export async function startRedis(port: number, options: string[]): Promise<ChildProcess> {
  const child = owned(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...options], { stdio: ['ignore', 'pipe', 'inherit'] }));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
  });
  return child;
}
