import { useTranslation } from 'react-i18next';
import '../../trajectories/cli.css';
import '../../ui/ui.css';

const COMMANDS = [
  ['login [--server URL] [--no-browser]', 'OAuth 2.0 · PKCE S256 · http://127.0.0.1:<port>/callback'],
  ['login --password [--username NAME]', 'SCRIPTORIUM_PASSWORD / SCRIPTORIUM_CONFIG'],
  ['chat [--project NAME]', '!<command> · /exit'],
  ['run [--project NAME] -- <command…>', 'exit code = the command’s'],
  ['whoami', ''],
  ['logout', ''],
] as const;

const FIELDS = [
  ['event_type', 'session_start · user_query · assistant_response · command · command_output · tool_call · tool_result · error · session_end'],
  ['timestamp', 'ISO 8601'],
  ['query', 'user_query'],
  ['content', 'assistant_response · command_output · tool_call · tool_result · error'],
  ['command', 'command'],
  ['exit_code', 'command_output'],
  ['model, tokens', 'assistant_response'],
] as const;

const EXAMPLE = `{"event_type":"session_start","timestamp":"2026-11-20T09:00:00.000Z"}
{"event_type":"user_query","timestamp":"2026-11-20T09:00:05.000Z","query":"为什么登录接口返回 401？"}
{"event_type":"assistant_response","timestamp":"2026-11-20T09:00:09.000Z","content":"令牌过期了……","model":"offline","tokens":180}
{"event_type":"command","timestamp":"2026-11-20T09:01:00.000Z","command":"npm test"}
{"event_type":"command_output","timestamp":"2026-11-20T09:01:30.000Z","content":"716 passed","exit_code":0}
{"event_type":"session_end","timestamp":"2026-11-20T09:02:00.000Z"}`;

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
  'POST /backend/engineer/trajectory/share',
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
            {COMMANDS.map(([command, note]) => (
              <tr key={command}>
                <td>
                  <code>npm run cli -- {command}</code>
                </td>
                <td className="muted">{note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="surface-card cli-card">
        <h2>{t('docs.format')}</h2>
        <p>{t('docs.formatText')}</p>
        <pre tabIndex={0}>
          <code>{EXAMPLE}</code>
        </pre>
        <h3>{t('docs.fields')}</h3>
        <table className="cli-table">
          <tbody>
            {FIELDS.map(([field, where]) => (
              <tr key={field}>
                <td>
                  <code>{field}</code>
                </td>
                <td className="muted">{where}</td>
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
