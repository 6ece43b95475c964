import { useTranslation } from 'react-i18next';
import type { TrajectoryEvent } from './api.ts';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { runNoteCode } from '@scriptorium/domain/protocol/trajectories';
import { catalogueText } from '../i18n/catalogue.ts';
import { timeline } from './list.ts';
import { CircleAlertIcon } from '../ui/icons.ts';
import { intlLocale } from '../i18n/language.ts';

void preloadMarkdown();

/** A proposal's answer, recorded in Chinese by the assistant, in the reader's language; any other result as recorded. */
function resultText(content: string): string {
  const code = runNoteCode(content);
  return code ? catalogueText(code) : content;
}

/** A trajectory's events as a conversation with terminal blocks, read-only. */
export function Timeline({ events }: { events: readonly TrajectoryEvent[] }) {
  const { t, i18n } = useTranslation('cli');
  const clock = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(intlLocale(i18n.language), { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(date);
  };
  return (
    <ol className="cli-timeline">
      {timeline(events).map((item, index) => {
        switch (item.kind) {
          case 'boundary':
            return (
              <li key={index} className="cli-boundary">
                <span>{item.event.event_type === 'session_start' ? t('detail.started') : t('detail.ended')}</span>
                <time>{clock(item.event.timestamp)}</time>
              </li>
            );
          case 'query':
            return (
              <li key={index} className="cli-query">
                <div className="cli-who">
                  {t('detail.you')} <time>{clock(item.event.timestamp)}</time>
                </div>
                <div className="cli-bubble">{item.event.query}</div>
              </li>
            );
          case 'answer':
            return (
              <li key={index} className="cli-answer">
                <div className="cli-who">
                  {t('detail.assistant')} <time>{clock(item.event.timestamp)}</time>
                  {item.event.tokens !== undefined && <span className="chip chip-small">{t('detail.tokens', { count: item.event.tokens })}</span>}
                </div>
                <Markdown text={item.event.content ?? ''} />
              </li>
            );
          case 'command': {
            const code = item.output?.exit_code;
            return (
              <li key={index} className="cli-command">
                <div className="cli-terminal">
                  <div className="cli-terminal-head">
                    <span className="cli-prompt">$</span>
                    <code>{item.command.command}</code>
                    {code !== undefined && <span className={`cli-exit ${code === 0 ? 'ok' : 'failed'}`}>{t('detail.exitCode', { code })}</span>}
                  </div>
                  <pre>{item.output?.content || t('detail.noOutput')}</pre>
                </div>
              </li>
            );
          }
          case 'tool':
            return (
              <li key={index} className="cli-tool">
                <div className="cli-who">{t('detail.toolCall')}</div>
                <pre>{item.call.content}</pre>
                {item.result && (
                  <>
                    <div className="cli-who">{t('detail.toolResult')}</div>
                    <pre>{resultText(item.result.content ?? '')}</pre>
                  </>
                )}
              </li>
            );
          case 'error':
            return (
              <li key={index} className="cli-error" role="note">
                <CircleAlertIcon size={14} />
                <span>
                  {t('detail.error')}：{item.event.content}
                </span>
              </li>
            );
        }
      })}
    </ol>
  );
}
