// Under tsx (development and tests) a worker thread's entry cannot be TypeScript on Node 20: the
// loader hooks are not yet in place when the entry is resolved. This entry loads the real worker
// through tsx's API; the compiled server starts dist/documentWorker.js directly.
import { tsImport } from 'tsx/esm/api';

await tsImport('./documentWorker.ts', import.meta.url);
