/**
 * Plays a test process (orphans.test.ts): owns a child and registers a cleanup, prints the child's
 * pid, then waits to be ended.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { owned, ownedCleanup } from '../support/children.ts';

const [marker] = process.argv.slice(2);
ownedCleanup(() => writeFileSync(marker!, 'cleaned'));
const child = owned(spawn('sleep', ['600'], { stdio: 'ignore' }));
process.stdout.write(`${child.pid}\n`);
setInterval(() => undefined, 60_000);
