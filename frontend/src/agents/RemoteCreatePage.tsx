import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { agentsApi, type AgentDto, type AgentInput } from './api.ts';
import type { ApiError } from '../api/client.ts';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { ToolTester } from './ToolTester.tsx';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageLoading } from '../components/PageState.tsx';
import { catalogueText } from '../i18n/catalogue.ts';
import './agents.css';
import { ArrowRightIcon } from '../ui/icons.ts';
import '../ui/ui.css';

/** /remote/create: a new agent, or `?id=` to edit one; its tools can be tried right here. */
export default function RemoteCreatePage() {
  const [params] = useSearchParams();
  const editing = params.get('id');
  const agent = useApiQuery({ queryKey: queryKeys.agent(editing ?? ''), queryFn: () => agentsApi.get(editing ?? ''), enabled: editing !== null });
  // The form starts from the agent being edited, so it waits for it (a failed read starts it empty, with the reason).
  if (editing !== null && agent.isPending) return <PageLoading />;
  return <AgentForm key={editing ?? ''} editing={editing} agent={agent.data} loadError={agent.error} />;
}

function AgentForm({ editing, agent, loadError }: { editing: string | null; agent: AgentDto | undefined; loadError: ApiError | null }) {
  const { t } = useTranslation('agents');
  const navigate = useNavigate();
  const ids = useId();
  const list = useApiQuery({ queryKey: queryKeys.agents, queryFn: agentsApi.list });
  const tools = list.data?.tools ?? [];
  const [name, setName] = useState(agent?.name ?? '');
  const [description, setDescription] = useState(agent?.description ?? '');
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  const [chosen, setChosen] = useState<string[]>(agent?.tools ?? []);
  const save = useApiMutation({
    mutationFn: (input: AgentInput) => (editing ? agentsApi.update(editing, input) : agentsApi.create(input)),
    onSuccess: (saved) => {
      // The monitoring page reads the list (and this agent) again when it opens.
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents, refetchType: 'none' });
      navigate(`/remote?agent=${encodeURIComponent(saved.id)}`);
    },
  });
  const busy = save.isPending;
  const error = save.error ?? list.error ?? loadError;
  // What is missing is said once the user tries to save, under the field, in the catalogue's words.
  const [tried, setTried] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const instructionsInput = useRef<HTMLTextAreaElement>(null);
  const missing = {
    name: name.trim() === '' ? catalogueText('agents.name_empty') : null,
    instructions: instructions.trim() === '' ? catalogueText('agents.instructions_empty') : null,
  };
  const missingId = (field: keyof typeof missing) => `${ids}-${field}-missing`;
  const flagged = (field: keyof typeof missing) => (tried && missing[field] ? { 'aria-invalid': true, 'aria-describedby': missingId(field) } : {});
  const shown = (field: keyof typeof missing) =>
    tried &&
    missing[field] && (
      <p className="field-error" id={missingId(field)}>
        {missing[field]}
      </p>
    );

  const toggle = (tool: string) => setChosen((current) => (current.includes(tool) ? current.filter((known) => known !== tool) : [...current, tool]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing.name || missing.instructions) {
      setTried(true);
      (missing.name ? nameInput : instructionsInput).current?.focus();
      return;
    }
    save.mutate({ name, description, instructions, tools: chosen });
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
        <form className="surface-card agent-form" noValidate onSubmit={submit}>
          <label htmlFor={`${ids}-name`}>{t('form.name')}</label>
          <input ref={nameInput} className="input" id={`${ids}-name`} value={name} maxLength={60} required {...flagged('name')} placeholder={t('form.namePlaceholder')} onChange={(event) => setName(event.target.value)} />
          {shown('name')}
          <label htmlFor={`${ids}-description`}>{t('form.description')}</label>
          <input className="input" id={`${ids}-description`} value={description} maxLength={300} placeholder={t('form.descriptionPlaceholder')} onChange={(event) => setDescription(event.target.value)} />
          <label htmlFor={`${ids}-instructions`}>{t('form.instructions')}</label>
          <textarea ref={instructionsInput} className="input" id={`${ids}-instructions`} rows={6} value={instructions} maxLength={4000} required {...flagged('instructions')} placeholder={t('form.instructionsPlaceholder')} onChange={(event) => setInstructions(event.target.value)} />
          {shown('instructions')}
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
            <button type="submit" className="button button-primary" disabled={busy}>
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
