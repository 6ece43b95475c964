import { TRAJECTORY_EVENT_TYPES } from '@scriptorium/domain/protocol/trajectories';
import { useTranslation } from 'react-i18next';
import './cli.css';
import '../ui/ui.css';

/** The commands as typed, each with the key of what it does (`docs.commandText.*`). */
const COMMANDS = [
  ['login [--server URL] [--no-browser]', 'login'],
  ['login --password [--username NAME]', 'password'],
  ['chat [--project NAME]', 'chat'],
  ['run [--project NAME] -- <command…>', 'run'],
  ['whoami', 'whoami'],
  ['logout', 'logout'],
] as const;

/** Each field of a trajectory line with the key of its description (`docs.fieldText.*`). */
const FIELDS = [
  ['event_type', 'eventType'],
  ['timestamp', 'timestamp'],
  ['query', 'query'],
  ['content', 'content'],
  ['command', 'command'],
  ['exit_code', 'exitCode'],
  ['model, tokens', 'model'],
] as const;

/** A sample trajectory in the reader's language: every line is one event as JSON. */
const example = (query: string, answer: string) =>
  [
    { event_type: 'session_start', timestamp: '2026-11-20T09:00:00.000Z' },
    { event_type: 'user_query', timestamp: '2026-11-20T09:00:05.000Z', query },
    { event_type: 'assistant_response', timestamp: '2026-11-20T09:00:09.000Z', content: answer, model: 'offline', tokens: 180 },
    { event_type: 'command', timestamp: '2026-11-20T09:01:00.000Z', command: 'npm test' },
    { event_type: 'command_output', timestamp: '2026-11-20T09:01:30.000Z', content: '716 passed', exit_code: 0 },
    { event_type: 'session_end', timestamp: '2026-11-20T09:02:00.000Z' },
  ].map((event) => JSON.stringify(event));

const API = [
  'GET  /.well-known/oauth-authorization-server',
  'POST /backend/oauth/token',
  'POST /backend/oauth/revoke',
  'POST /backend/engineer/v1/chat/completions',
  'GET  /backend/engineer/v1/models[/{id}]',
  'POST /backend/engineer/trajectory/files',
  'GET  /backend/engineer/trajectory/files?limit=50&offset=0',
  'GET  /backend/engineer/trajectory/files/{id}[/download]',
  'PUT  /backend/engineer/trajectory/files/{id}/favorite',
  'GET  /backend/engineer/trajectory/files/{id}/shares',
  'POST /backend/engineer/trajectory/share',
  'DELETE /backend/engineer/trajectory/share/{token}',
  'GET  /backend/engineer/trajectory/shared/{token}[/download]',
];

/** /cli/docs: the commands, the trajectory format and the calls behind them. */
export default function CliDocsPage() {
  const { t } = useTranslation('cli');
  return (
    // The page and its code blocks scroll, and there is no link in them to reach by keyboard.
    <div className="cli-landing cli-docs" tabIndex={0}>
      <h1>{t('docs.title')}</h1>
      <section className="surface-card cli-card">
        <h2>{t('docs.commands')}</h2>
        <table className="cli-table">
          <tbody>
            {COMMANDS.map(([command, key]) => (
              <tr key={command}>
                <td>
                  <code>npm run cli -- {command}</code>
                </td>
                <td className="muted">{t(`docs.commandText.${key}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="surface-card cli-card">
        <h2>{t('docs.format')}</h2>
        <p>{t('docs.formatText')}</p>
        <pre tabIndex={0} className="cli-jsonl">
          <code>
            {example(t('docs.sampleQuery'), t('docs.sampleAnswer')).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </code>
        </pre>
        <h3>{t('docs.fields')}</h3>
        <table className="cli-table">
          <tbody>
            {FIELDS.map(([field, key]) => (
              <tr key={field}>
                <td>
                  <code>{field}</code>
                </td>
                <td className="muted">{t(`docs.fieldText.${key}`, { types: TRAJECTORY_EVENT_TYPES.join(' · ') })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="surface-card cli-card">
        <h2>{t('docs.api')}</h2>
        <p>{t('docs.apiText')}</p>
        <pre tabIndex={0}>
          <code>{API.join('\n')}</code>
        </pre>
      </section>
    </div>
  );
}
