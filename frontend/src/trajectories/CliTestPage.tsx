import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserTokens } from '../api/token.ts';
import { CliHero } from './CliHero.tsx';
import './cli.css';
import '../ui/ui.css';
import { intlLocale } from '../i18n/language.ts';

type State = { kind: 'idle' | 'connecting' | 'open' } | { kind: 'closed'; code: number; reason: string };
interface Entry {
  at: number;
  direction: 'sent' | 'received';
  text: string;
}

const MAX_ENTRIES = 200;

/** /cli/test: opens the same WebSocket the research view uses and shows what travels over it. */
export default function CliTestPage() {
  const { t, i18n } = useTranslation('cli');
  const socket = useRef<WebSocket | null>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [entries, setEntries] = useState<Entry[]>([]);
  const [beats, setBeats] = useState<number[]>([]);

  const log = (direction: Entry['direction'], text: string) => setEntries((current) => [{ at: Date.now(), direction, text }, ...current].slice(0, MAX_ENTRIES));
  const connect = () => {
    socket.current?.close(1000);
    const token = browserTokens.get() ?? '';
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${window.location.host}/backend/conversation/ws/cli-test-${crypto.randomUUID()}?token=${encodeURIComponent(token)}`);
    socket.current = ws;
    setState({ kind: 'connecting' });
    setBeats([]);
    ws.onopen = () => setState({ kind: 'open' });
    ws.onclose = (event) => setState({ kind: 'closed', code: event.code, reason: event.reason });
    ws.onmessage = (event) => {
      const text = String(event.data);
      log('received', text);
      try {
        if ((JSON.parse(text) as { type?: string }).type === 'heartbeat') setBeats((current) => [...current, Date.now()].slice(-50));
      } catch {
        /* the log shows what could not be read */
      }
    };
  };
  const send = (text: string) => {
    if (socket.current?.readyState !== WebSocket.OPEN) return;
    socket.current.send(text);
    log('sent', text);
  };

  useEffect(() => () => socket.current?.close(1000), []);

  const gaps = beats.slice(1).map((at, index) => at - beats[index]!);
  const average = gaps.length > 0 ? Math.round(gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length) : null;
  const open = state.kind === 'open';
  return (
    <div className="cli-landing">
      <CliHero title={t('socketTest.title')} subtitle={t('socketTest.subtitle')} />
      <section className="surface-card cli-card cli-socket">
        <div className="cli-socket-bar">
          <span className={`cli-socket-state ${state.kind}`} role="status">
            {state.kind === 'closed' ? t('socketTest.closedWith', { code: state.code, reason: state.reason ? `, ${state.reason}` : '' }) : t(`socketTest.state.${state.kind}`)}
          </span>
          <span className="muted">
            {t('socketTest.heartbeats', { count: beats.length })}
            {average !== null && ` · ${t('socketTest.interval', { ms: average })}`}
          </span>
          <span className="toolbar-spacer" />
          {open ? (
            <button type="button" className="button button-secondary button-small" onClick={() => socket.current?.close(1000)}>
              {t('socketTest.disconnect')}
            </button>
          ) : (
            <button type="button" className="button button-primary button-small" onClick={connect}>
              {t('socketTest.connect')}
            </button>
          )}
        </div>
        <div className="cli-socket-actions">
          <button type="button" className="button button-secondary button-small" disabled={!open} onClick={() => send('{"session_id": 42}')}>
            {t('socketTest.sendBad')}
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={!open}
            onClick={() => send(JSON.stringify({ session_id: crypto.randomUUID(), agent: 'none', payload: { content_type: 'subscribe' } }))}
          >
            {t('socketTest.sendUnknown')}
          </button>
          <button type="button" className="link-button" onClick={() => setEntries([])}>
            {t('socketTest.clear')}
          </button>
        </div>
        <h3>{t('socketTest.log')}</h3>
        {entries.length === 0 ? (
          <p className="muted">{t('socketTest.empty')}</p>
        ) : (
          <ol className="cli-socket-log">
            {entries.map((entry, index) => (
              <li key={`${entry.at}-${index}`} className={entry.direction}>
                <span>{new Date(entry.at).toLocaleTimeString(intlLocale(i18n.language))}</span>
                <strong>{t(`socketTest.${entry.direction}`)}</strong>
                <code>{entry.text}</code>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
