/**
 * Compiles the server into JavaScript that `node` runs directly (the container's one process):
 * `dist/main.js` (every role) and `dist/documentWorker.js` (the document sandbox's worker thread, which
 * the sandbox starts from beside its own bundle). npm packages stay external and load from node_modules.
 * Our modules find files relative to their own source (the built client, the API docs' script, pdf.js's
 * data through package resolution, the SQLite writer): `import.meta.url` in them is rewritten to their
 * source file's place relative to the bundle, so the bundle runs from the source tree it was built in.
 *
 * `tsx infra/deploy/build.ts [outdir]` (default `dist`, relative to the repository root).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The sandbox must see the bundle's own place: it starts `documentWorker.js` from beside it. */
const KEEP_OWN_URL = new Set([join(ROOT, 'infra/src/documents/sandbox.ts')]);

export async function buildServer(outdir = join(ROOT, 'dist')): Promise<void> {
  const packagesExternal: Plugin = {
    name: 'packages-external',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@scriptorium/') ? undefined : { path: args.path, external: true }));
    },
  };
  const sourceUrls: Plugin = {
    name: 'source-urls',
    setup(builder) {
      builder.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const contents = await readFile(args.path, 'utf8');
        if (args.path.includes(`${sep}node_modules${sep}`) || KEEP_OWN_URL.has(args.path) || !contents.includes('import.meta.url')) return undefined;
        const fromBundle = relative(outdir, args.path).split(sep).join('/');
        return { contents: contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
  await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'backend/src/main.ts', documentWorker: 'infra/src/documents/documentWorker.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [packagesExternal, sourceUrls],
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer(process.argv[2] ? resolve(ROOT, process.argv[2]) : undefined);
