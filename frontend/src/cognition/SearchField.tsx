import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normaliseQuery, searchStep, type SearchInput } from './search.ts';
import { SearchIcon, XIcon } from '../ui/icons.ts';
import './cognition.css';

/**
 * A search box: Enter searches, typing searches after a pause when `live`, the clear button empties
 * it. `applied` is the query the results on screen answer; when it changes from outside (the back
 * button, a "clear search" elsewhere) the box follows.
 */
export function SearchField({ applied, live, label, placeholder, onSearch, className = '' }: { applied: string; live: boolean; label: string; placeholder: string; onSearch: (query: string) => void; className?: string }) {
  const { t } = useTranslation('cognition');
  const [text, setText] = useState(applied);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // While an input method is composing (pinyin and the like), the box holds letters, not the words meant.
  const composing = useRef(false);

  useEffect(() => {
    setText((current) => (normaliseQuery(current) === applied ? current : applied));
  }, [applied]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const handle = (input: SearchInput) => {
    clearTimeout(timer.current);
    const step = searchStep(input, { applied, live });
    if (step.kind === 'wait') timer.current = setTimeout(() => onSearch(step.query), step.ms);
    else if (step.kind === 'now') onSearch(step.query);
  };

  return (
    <form
      className={`cog-search ${className}`}
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        handle({ kind: 'enter', text });
      }}
    >
      <SearchIcon size={16} className="cog-search-icon" />
      <input
        type="search"
        value={text}
        aria-label={label}
        placeholder={placeholder}
        enterKeyHint="search"
        onCompositionStart={() => {
          composing.current = true;
        }}
        onCompositionEnd={(event) => {
          composing.current = false;
          handle({ kind: 'typed', text: event.currentTarget.value });
        }}
        onChange={(event) => {
          setText(event.target.value);
          if (!composing.current) handle({ kind: 'typed', text: event.target.value });
        }}
      />
      {text !== '' && (
        <button
          type="button"
          className="cog-search-clear"
          aria-label={t('panel.clear')}
          title={t('panel.clear')}
          onClick={() => {
            setText('');
            handle({ kind: 'cleared' });
          }}
        >
          <XIcon size={14} />
        </button>
      )}
    </form>
  );
}
