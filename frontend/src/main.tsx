import { i18nReady } from './i18n/index.ts';
import './styles/tokens.css';
import './styles/base.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createAppRouter } from './app/router.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * Evaluating the entry is one long task on a slow phone; building the router (it matches the URL
 * and ranks the route table) waits for the next, so the page can answer a tap in between. Then the
 * app renders once the stored language is there (at once in Chinese, after one small chunk in
 * English) and the first URL's screen has arrived; as a transition, React renders the first screen
 * in slices of a few milliseconds. Not a top-level await: the screens' chunks import from this one,
 * and would wait for it to finish evaluating.
 */
async function start(container: HTMLElement): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve));
  const { router, firstScreenReady } = createAppRouter();
  await Promise.all([i18nReady, firstScreenReady]);
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    ),
  );
}

void start(root);
