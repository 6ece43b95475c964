import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { oauthApi } from '../oauth/api.ts';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { CliHero } from './CliHero.tsx';
import './cli.css';
import { ArrowRightIcon, HistoryIcon, Share2Icon, ShieldIcon, TerminalIcon, type IconComponent } from '../ui/icons.ts';
import '../ui/ui.css';

const STEPS: Array<{ key: 'login' | 'chat' | 'run'; command: (server: string) => string }> = [
  { key: 'login', command: (server) => `npm run cli -- login --server ${server}` },
  { key: 'chat', command: () => 'npm run cli -- chat --project my-app' },
  { key: 'run', command: () => 'npm run cli -- run -- npm test' },
];

/** Where the CLI should sign in: the server's public address (its OAuth issuer, PUBLIC_URL when set), else this page's origin. */
function useServerAddress(): string {
  const metadata = useApiQuery({ queryKey: queryKeys.oauthMetadata, queryFn: oauthApi.metadata, staleTime: Number.POSITIVE_INFINITY, retry: false });
  return metadata.data?.issuer ?? window.location.origin;
}

const FEATURES: Array<{ key: 'record' | 'budget' | 'share'; icon: IconComponent }> = [
  { key: 'record', icon: HistoryIcon },
  { key: 'budget', icon: ShieldIcon },
  { key: 'share', icon: Share2Icon },
];

/** /cli: what the command-line assistant is and how to start, for anyone. */
export default function CliPage() {
  const { t } = useTranslation('cli');
  const server = useServerAddress();
  return (
    <div className="cli-landing">
      <CliHero title={t('landing.title')} subtitle={t('landing.subtitle')} />
      <section className="surface-card cli-card">
        <h2>{t('landing.install')}</h2>
        <ol className="cli-steps">
          {STEPS.map((step) => (
            <li key={step.key}>
              <p>{t(`landing.steps.${step.key}`)}</p>
              <pre>
                <code>{step.command(server)}</code>
              </pre>
            </li>
          ))}
        </ol>
      </section>
      <section className="cli-features">
        {FEATURES.map((feature) => (
          <div key={feature.key} className="surface-card cli-card">
            <feature.icon size={18} />
            <h3>{t(`landing.features.${feature.key}.title`)}</h3>
            <p className="muted">{t(`landing.features.${feature.key}.text`)}</p>
          </div>
        ))}
      </section>
      <div className="cli-landing-actions">
        <Link className="button button-primary" to="/cli/trajectories">
          {t('landing.toTrajectories')}
          <ArrowRightIcon size={16} />
        </Link>
        <Link className="button button-secondary" to="/engineer">
          <TerminalIcon size={16} />
          {t('landing.toSessions')}
        </Link>
        <Link className="button button-secondary" to="/cli/docs">
          {t('landing.toDocs')}
        </Link>
        <Link className="button button-secondary" to="/cli-leaderboard">
          {t('leaderboard.title')}
        </Link>
      </div>
    </div>
  );
}
