import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const INDEX = fileURLToPath(new URL('../../frontend/dist/index.html', import.meta.url));

/**
 * The benches that open the client need it built (`npm run build`; `npm test` builds it first).
 * Without it they would wait for a page that never comes and fail with a timeout that says nothing.
 */
export function requireBuiltClient(): void {
  if (!existsSync(INDEX)) throw new Error(`the client is not built (no ${INDEX}): run npm run build first`);
}
