import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { engineerApi } from './api.ts';
import { useApiMutation } from '../api/query.ts';
import { SparklesIcon } from '../ui/icons.ts';

/** Starts the server's demo agent on a task and opens its session to watch it work. */
export function DemoLauncher({ onStarted }: { onStarted: () => void }) {
  const { t } = useTranslation('engineer');
  const navigate = useNavigate();
  const [task, setTask] = useState('');
  const starting = useApiMutation({
    mutationFn: (description: string) => engineerApi.startDemo(description),
    onSuccess: ({ execution_id: id }) => {
      setTask('');
      onStarted();
      navigate(`/engineer/${id}`);
    },
  });

  function start(event: FormEvent) {
    event.preventDefault();
    starting.mutate(task.trim());
  }

  return (
    <form className="engineer-demo" onSubmit={start}>
      <h3>{t('demo.title')}</h3>
      <p className="muted">{t('demo.hint')}</p>
      <textarea className="input" rows={2} aria-label={t('demo.task')} placeholder={t('demo.placeholder')} value={task} onChange={(event) => setTask(event.target.value)} />
      <button type="submit" className="button button-secondary" disabled={starting.isPending || task.trim() === ''}>
        <SparklesIcon size={16} />
        {t('demo.start')}
      </button>
      {starting.error && (
        <p role="alert" className="engineer-error">
          {starting.error.userMessage}
        </p>
      )}
    </form>
  );
}
