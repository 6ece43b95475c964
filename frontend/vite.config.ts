import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { cliEn } from './src/i18n/cli.en.ts';
import { cliZh } from './src/i18n/cli.zh.ts';
import { en } from './src/i18n/en.ts';
import { htmlLang } from './src/i18n/language.ts';
import { zh } from './src/i18n/zh.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels: compressing once
 * at build time costs nothing per request, and the server (koa-send) picks the file by Accept-Encoding.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'scriptorium:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle), 'index.html'].filter((file, i, all) => COMPRESSIBLE.test(file) && !file.startsWith('.vite/') && all.indexOf(file) === i);
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const source = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * Puts the entry's stylesheet inside index.html. A `<link rel="stylesheet">` blocks the first paint
 * until a second round trip has brought it (about 160 ms on slow 4G), while 7 KB of brotli more in the
 * document costs no extra round trip; the spinner and the app's first render are styled at once.
 * The stylesheet is taken off the entry chunk once the CSS plugin has rendered it, so neither the
 * link tag, nor the lists of what a lazy chunk loads first, nor the manifest name it.
 */
function inlineEntryCss(): Plugin {
  const inlined = new Set<string>();
  return {
    name: 'scriptorium:inline-entry-css',
    apply: 'build',
    enforce: 'post',
    renderChunk(_code, chunk) {
      if (!chunk.isEntry || !chunk.viteMetadata) return null;
      for (const css of chunk.viteMetadata.importedCss) inlined.add(css);
      chunk.viteMetadata.importedCss.clear();
      return null;
    },
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') throw new Error('inline-entry-css: no index.html in the bundle');
      const styles = [...inlined].map((file) => {
        const css = bundle[file];
        if (css?.type !== 'asset') throw new Error(`inline-entry-css: ${file} is not in the bundle`);
        delete bundle[file];
        return `<style>${String(css.source).replaceAll('</style', '<\\/style')}</style>`;
      });
      html.source = String(html.source).replace('</head>', `${styles.join('')}</head>`);
    },
  };
}

/**
 * Marks the entry script and every preload in the built pages as low priority, which is true: nothing the
 * first paint needs is fetched (the entry's CSS is inline, the placeholder is in the document, module
 * scripts never block parsing). It costs a phone nothing, since with no render-blocking resource in
 * the head Chromium holds no low-priority request back. Lighthouse's simulation treats any
 * high-priority script that finished before the observed paint as if it had blocked it, which on a
 * fast machine made its first-paint figure swing by a second between runs of the same build
 * (docs/performance.md).
 */
function lowPriorityScripts(): Plugin {
  return {
    name: 'scriptorium:low-priority-scripts',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const pages = Object.values(bundle).filter((file): file is Rollup.OutputAsset => file.type === 'asset' && file.fileName.endsWith('.html'));
      if (pages.length === 0) throw new Error('low-priority-scripts: no page in the bundle');
      for (const page of pages) {
        page.source = String(page.source).replace(/<(script type="module"|link rel="modulepreload"|link rel="preload")/g, '<$1 fetchpriority="low"');
      }
    },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

const placeholderName = '<span class="page-loading-name"><span class="spinner" aria-hidden="true"></span>Scriptorium</span>';

/**
 * The screens a first visit lands on, and the pages the server sends for them (by language):
 * `/research` (`HOME_PATH`, where `/` leads) and the CLI's public page. Each page shows, before its
 * scripts arrive (seconds on a slow phone), the app's name and the screen's own text in the reader's
 * language instead of a bare spinner; the app replaces it on its first render.
 */
const LANDINGS = [
  {
    module: 'src/research/ResearchPage.tsx',
    pages: { zh: 'research.html', en: 'research.en.html' },
    placeholder: (language: 'zh' | 'en') =>
      `<div class="page-loading page-loading-landing">${placeholderName}<p>${escapeHtml((language === 'en' ? en : zh).research.description)}</p></div>`,
  },
  {
    // The CLI page is static text: its heading and its steps are the page itself, so they are shown
    // whole (the commands, which name the server's address, come with the app).
    module: 'src/trajectories/CliPage.tsx',
    pages: { zh: 'cli.html', en: 'cli.en.html' },
    placeholder: (language: 'zh' | 'en') => {
      const { landing } = language === 'en' ? cliEn : cliZh;
      const steps = Object.values(landing.steps).map((step) => `<li>${escapeHtml(step)}</li>`);
      return `<div class="page-loading page-loading-landing page-loading-steps">${placeholderName}<h1>${escapeHtml(landing.title)}</h1><p>${escapeHtml(landing.subtitle)}</p><h2>${escapeHtml(landing.install)}</h2><ol>${steps.join('')}</ol></div>`;
    },
  },
] as const;

/**
 * Writes each of LANDINGS' pages: index.html that also asks at once for that screen's chunks, which
 * the entry would otherwise request only once it has run (a round trip and the entry's evaluation
 * later), with the screen's placeholder in `#root`. The server sends it for that screen's path only,
 * so other first visits fetch nothing extra. Its stylesheets are preloaded, not linked: a link would
 * block the first paint.
 */
function landingPreload(): Plugin {
  return {
    name: 'scriptorium:landing-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const closure = (start: string | undefined, into = new Set<string>()): Set<string> => {
        const chunk = chunks.find((candidate) => candidate.fileName === start);
        if (!chunk || into.has(chunk.fileName)) return into;
        into.add(chunk.fileName);
        for (const imported of chunk.imports) closure(imported, into);
        return into;
      };
      const entry = closure(chunks.find((chunk) => chunk.isEntry)?.fileName);
      const html = bundle['index.html'];
      if (html?.type !== 'asset') throw new Error('landing-preload: no index.html');
      const placeholder = /<div id="root">.*?<\/div><\/div>/;
      if (!placeholder.test(String(html.source))) throw new Error('landing-preload: index.html has no #root placeholder');
      for (const landing of LANDINGS) {
        const screen = chunks.find((chunk) => chunk.facadeModuleId === join(root, landing.module));
        if (!screen) throw new Error(`landing-preload: no chunk for ${landing.module}`);
        const files = [...closure(screen.fileName)].filter((file) => !entry.has(file));
        const css = files.flatMap((file) => [...(chunks.find((chunk) => chunk.fileName === file)?.viteMetadata?.importedCss ?? [])]);
        const links = [...files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`), ...css.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`)];
        const preloading = String(html.source).replace('</head>', `${links.join('')}</head>`);
        for (const language of ['zh', 'en'] as const) {
          const page = preloading.replace(placeholder, `<div id="root">${landing.placeholder(language)}</div>`).replace(/<html lang="[^"]*">/, `<html lang="${htmlLang(language)}">`);
          this.emitFile({ type: 'asset', fileName: landing.pages[language], source: page });
        }
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), inlineEntryCss(), landingPreload(), lowPriorityScripts(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first-load budget test walks it to find what /research loads before its lazy chunks.
    manifest: true,
    // The entry is one chunk on purpose (650 KB raw); what counts is the brotli bytes of the first
    // load, which tests/http/static.test.ts holds under its budget.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Left alone, Rolldown makes every module the entry shares with some lazy screen a chunk of
        // its own: 27 requests before the research screen could render. Everything the entry
        // imports is one chunk, and lucide's icons (one small module each) another.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 2 },
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    // The API and its WebSocket gateway live behind /backend on the api role, as in production.
    proxy: {
      '/backend': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
});
