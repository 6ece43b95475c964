import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toApiError, type ApiError } from '../../api/client.ts';
import { agentsApi, type ToolDescriptor } from '../../api/agents.ts';
import { ToolTester } from '../../agents/ToolTester.tsx';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import '../../agents/agents.css';
import { ArrowRightIcon } from '../../ui/icons.ts';
import '../../ui/ui.css';

/** /remote/create: a new agent, or `?id=` to edit one; its tools can be tried right here. */
export default function RemoteCreatePage() {
  const { t } = useTranslation('agents');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const editing = params.get('id');
  const ids = useId();
  const [tools, setTools] = useState<ToolDescriptor[]>([]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [instructions, setInstructions] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    agentsApi.list().then(
      (body) => setTools(body.tools),
      (failure: unknown) => setError(toApiError(failure)),
    );
    if (!editing) return;
    agentsApi.get(editing).then(
      (agent) => {
        setName(agent.name);
        setDescription(agent.description);
        setInstructions(agent.instructions);
        setChosen(agent.tools);
      },
      (failure: unknown) => setError(toApiError(failure)),
    );
  }, [editing]);

  const toggle = (tool: string) => setChosen((current) => (current.includes(tool) ? current.filter((known) => known !== tool) : [...current, tool]));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const input = { name, description, instructions, tools: chosen };
      const saved = editing ? await agentsApi.update(editing, input) : await agentsApi.create(input);
      navigate(`/remote?agent=${encodeURIComponent(saved.id)}`);
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="agent-page">
      <Link className="link-button agent-back" to="/remote">
        <ArrowRightIcon size={12} className="flip" />
        {t('form.back')}
      </Link>
      <header className="page-head">
        <h1>{editing ? t('form.editTitle') : t('form.createTitle')}</h1>
      </header>
      {error && <ErrorBanner error={error} />}
      <div className="agent-columns">
        <form className="surface-card agent-form" onSubmit={(event) => void submit(event)}>
          <label htmlFor={`${ids}-name`}>{t('form.name')}</label>
          <input className="input" id={`${ids}-name`} value={name} maxLength={60} required placeholder={t('form.namePlaceholder')} onChange={(event) => setName(event.target.value)} />
          <label htmlFor={`${ids}-description`}>{t('form.description')}</label>
          <input className="input" id={`${ids}-description`} value={description} maxLength={300} placeholder={t('form.descriptionPlaceholder')} onChange={(event) => setDescription(event.target.value)} />
          <label htmlFor={`${ids}-instructions`}>{t('form.instructions')}</label>
          <textarea className="input" id={`${ids}-instructions`} rows={6} value={instructions} maxLength={4000} required placeholder={t('form.instructionsPlaceholder')} onChange={(event) => setInstructions(event.target.value)} />
          <fieldset>
            <legend>{t('form.tools')}</legend>
            {tools.map((tool) => (
              <label key={tool.name} className="agent-tool-choice">
                <input type="checkbox" checked={chosen.includes(tool.name)} onChange={() => toggle(tool.name)} />
                <span>
                  <code>{tool.name}</code>
                  <small className="muted">{t(`tools.${tool.name}`, { defaultValue: tool.description })}</small>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="agent-actions">
            <button type="submit" className="button button-primary" disabled={busy || !name.trim() || !instructions.trim()}>
              {busy && <span className="spinner spinner-small" />}
              {editing ? t('form.save') : t('form.create')}
            </button>
          </div>
        </form>
        <ToolTester tools={tools.filter((tool) => chosen.includes(tool.name))} {...(editing && { agentId: editing })} />
      </div>
    </div>
  );
}
