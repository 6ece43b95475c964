import { i18nReady } from './i18n/index.ts';
import './styles/tokens.css';
import './styles/base.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { firstScreenReady } from './app/router.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Rendered once the stored language is there (at once in Chinese, after one small chunk in English)
// and the first URL's screen has arrived. As a transition, React renders the first screen in slices
// of a few milliseconds, so a slow phone can still answer a tap while it does.
void Promise.all([i18nReady, firstScreenReady]).then(() =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  ),
);
