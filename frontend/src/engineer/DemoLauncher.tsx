import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { engineerApi } from '../api/engineer.ts';
import { toApiError } from '../api/client.ts';
import { SparklesIcon } from '../ui/icons.ts';

/** Starts the server's demo agent on a task and opens its session to watch it work. */
export function DemoLauncher({ onStarted }: { onStarted: () => void }) {
  const { t } = useTranslation('engineer');
  const navigate = useNavigate();
  const [task, setTask] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { execution_id: id } = await engineerApi.startDemo(task.trim());
      setTask('');
      onStarted();
      navigate(`/engineer/${id}`);
    } catch (failure) {
      setError(toApiError(failure).userMessage);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="engineer-demo" onSubmit={(event) => void start(event)}>
      <h3>{t('demo.title')}</h3>
      <p className="muted">{t('demo.hint')}</p>
      <textarea className="input" rows={2} aria-label={t('demo.task')} placeholder={t('demo.placeholder')} value={task} onChange={(event) => setTask(event.target.value)} />
      <button type="submit" className="button button-secondary" disabled={busy || task.trim() === ''}>
        <SparklesIcon size={16} />
        {t('demo.start')}
      </button>
      {error && (
        <p role="alert" className="engineer-error">
          {error}
        </p>
      )}
    </form>
  );
}
