import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import type { ApiError } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Select } from '../ui/Select.tsx';
import { CircleAlertIcon, CircleCheckIcon, KeyRoundIcon, PlusIcon, SquarePenIcon, Trash2Icon, ZapIcon } from '../ui/icons.ts';
import {
  adminApi,
  type Connections,
  type ConnectionTestRecord,
  type ConnectionTestResult,
  type EndpointInput,
  type ModelEndpoint,
  type ModelProfileWire,
  type SecretHint,
  type SingleConnection,
} from './api.ts';
import { useDateFormat, useNumberFormat } from './shared.tsx';

const KEY = queryKeys.manage('connections');
const REASONING = ['none', 'reasoning_content', 'think_tags'] as const;

/** Every answer of a change is the whole listing: it replaces the cached one, so nothing is fetched twice. */
const settle = (listing: Connections) => queryClient.setQueryData(KEY, listing);

/** Model endpoints by role, the web search, SMTP and speech, each with a real test call. */
export function ConnectionsTab() {
  const { t } = useTranslation('account');
  const listing = useApiQuery({ queryKey: KEY, queryFn: () => adminApi.connections() });
  const [editing, setEditing] = useState<ModelEndpoint | 'new' | null>(null);
  const [removing, setRemoving] = useState<ModelEndpoint | null>(null);
  const remove = useApiMutation({ mutationFn: (id: string) => adminApi.removeEndpoint(id), onSuccess: settle });

  if (!listing.data) return listing.error ? <ErrorBanner error={listing.error} /> : <p className="muted table-message">{t('manage.common.loading')}</p>;
  const data = listing.data;
  return (
    <div className="manage-panel connections">
      <section className="connection-section" aria-labelledby="connections-models">
        <div className="connection-section-head">
          <div>
            <h2 id="connections-models">{t('manage.connections.models.title')}</h2>
            <p className="muted">{t('manage.connections.models.hint')}</p>
          </div>
          <button className="button button-primary button-small" type="button" onClick={() => setEditing('new')}>
            <PlusIcon size={14} />
            {t('manage.connections.models.add')}
          </button>
        </div>
        {remove.error && <ErrorBanner error={remove.error} />}
        {data.models.length === 0 ? (
          <p className="muted connection-empty">{t('manage.connections.models.empty')}</p>
        ) : (
          <ul className="card-list">
            {data.models.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} onEdit={() => setEditing(endpoint)} onRemove={() => setRemoving(endpoint)} />
            ))}
          </ul>
        )}
      </section>
      <SearchSection data={data} />
      <SmtpSection data={data} />
      <SpeechSection data={data} />
      {editing && <EndpointDialog endpoint={editing === 'new' ? null : editing} roles={data.roles} taken={takenRoles(data.models, editing === 'new' ? null : editing.id)} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmDialog
          title={t('manage.connections.models.removeTitle')}
          text={t('manage.connections.models.removeText', { model: removing.model, url: removing.base_url })}
          confirmLabel={t('manage.connections.remove')}
          onConfirm={() => remove.mutateAsync(removing.id).catch(() => undefined)}
          onClose={() => setRemoving(null)}
        />
      )}
    </div>
  );
}

/** Roles other endpoints already serve (all but `default`, which several may claim). */
function takenRoles(models: ModelEndpoint[], except: string | null): Map<string, string> {
  const taken = new Map<string, string>();
  for (const endpoint of models) if (endpoint.id !== except) for (const role of endpoint.roles) if (role !== 'default') taken.set(role, endpoint.model);
  return taken;
}

function EndpointCard({ endpoint, onEdit, onRemove }: { endpoint: ModelEndpoint; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation('account');
  const test = useApiMutation({ mutationFn: () => adminApi.testEndpoint(endpoint.id), onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }) });
  return (
    <li className="connection-card" aria-label={endpoint.model}>
      <div className="connection-card-head">
        <div className="connection-card-title">
          <strong>{endpoint.model}</strong>
          <span className="muted connection-url">{endpoint.base_url}</span>
        </div>
        <div className="connection-actions">
          <TestButton pending={test.isPending} onClick={() => test.mutate()} />
          <button className="button button-secondary button-small" type="button" onClick={onEdit} aria-label={`${t('manage.connections.edit')} ${endpoint.model}`}>
            <SquarePenIcon size={14} />
            {t('manage.connections.edit')}
          </button>
          <button className="button button-secondary button-small" type="button" onClick={onRemove} aria-label={`${t('manage.connections.remove')} ${endpoint.model}`}>
            <Trash2Icon size={14} />
            {t('manage.connections.remove')}
          </button>
        </div>
      </div>
      <div className="connection-meta">
        {endpoint.roles.map((role) => (
          <span key={role} className="mini-badge mini-badge-primary">
            {t(`manage.connections.roles.${role}`, { defaultValue: role })}
          </span>
        ))}
        <KeyHint hint={endpoint.key} />
        <ProfileSummary profile={endpoint.effective_profile} />
      </div>
      <TestOutcome result={test.data} error={test.error} last={endpoint.last_test} />
    </li>
  );
}

function KeyHint({ hint, label }: { hint: SecretHint; label?: string }) {
  const { t } = useTranslation('account');
  const text = !hint.set ? t('manage.connections.key.none') : !hint.readable ? t('manage.connections.key.unreadable') : hint.last4 ? t('manage.connections.key.setEnding', { last4: hint.last4 }) : t('manage.connections.key.set');
  return (
    <span className={`mini-badge ${hint.set && !hint.readable ? 'mini-badge-danger' : 'mini-badge-muted'}`}>
      <KeyRoundIcon size={12} aria-hidden="true" />
      {label ? `${label}: ${text}` : text}
    </span>
  );
}

function ProfileSummary({ profile }: { profile: ModelProfileWire }) {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  return (
    <span className="muted connection-profile">
      {t('manage.connections.profile.summary', {
        window: number(profile.context_window),
        output: number(profile.max_output_tokens),
        reasoning: t(`manage.connections.profile.reasoning.${profile.reasoning ?? 'none'}`),
      })}
    </span>
  );
}

function TestButton({ pending, onClick, disabled = false }: { pending: boolean; onClick: () => void; disabled?: boolean }) {
  const { t } = useTranslation('account');
  return (
    <button className="button button-secondary button-small" type="button" onClick={onClick} disabled={pending || disabled}>
      {pending ? <span className="spinner" aria-hidden="true" /> : <ZapIcon size={14} />}
      {pending ? t('manage.connections.testing') : t('manage.connections.test')}
    </button>
  );
}

/** The test just run, else the last one recorded; a request that failed outright shows its error. */
function TestOutcome({ result, error, last }: { result: ConnectionTestResult | undefined; error: ApiError | null; last: ConnectionTestRecord | null }) {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const number = useNumberFormat();
  if (error) return <ErrorBanner error={error} />;
  const shown = result ?? last;
  if (!shown) return null;
  return (
    <div className={`connection-test ${shown.ok ? 'connection-test-ok' : 'connection-test-failed'}`} role="status">
      {shown.ok ? <CircleCheckIcon size={15} /> : <CircleAlertIcon size={15} />}
      <div>
        <p>
          <strong>{shown.ok ? t('manage.connections.result.ok') : t('manage.connections.result.failed')}</strong>
          {' · '}
          {t('manage.connections.result.latency', { ms: number(shown.latency_ms) })}
          {result?.model && <> · {t('manage.connections.result.answeredBy', { model: result.model })}</>}
          {!result && last && <> · {t('manage.connections.result.lastAt', { at: date(last.at) })}</>}
        </p>
        {shown.detail && <code className="connection-detail">{shown.detail}</code>}
        {result?.profile && (
          <p className="muted">
            {t('manage.connections.result.profile')} <ProfileSummary profile={result.profile} />
          </p>
        )}
      </div>
    </div>
  );
}

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

function EndpointDialog({ endpoint, roles, taken, onClose }: { endpoint: ModelEndpoint | null; roles: string[]; taken: Map<string, string>; onClose: () => void }) {
  const { t } = useTranslation('account');
  const [form, setForm] = useState({
    base_url: endpoint?.base_url ?? '',
    model: endpoint?.model ?? '',
    api_key: '',
    clearKey: false,
    roles: endpoint?.roles ?? (taken.size === 0 ? ['default'] : []),
    context_window: endpoint?.profile.context_window?.toString() ?? '',
    max_output_tokens: endpoint?.profile.max_output_tokens?.toString() ?? '',
    reasoning: endpoint?.profile.reasoning ?? '',
    promptPrice: endpoint?.profile.price?.prompt_per_million.toString() ?? '',
    completionPrice: endpoint?.profile.price?.completion_per_million.toString() ?? '',
    currency: endpoint?.profile.price?.currency ?? 'USD',
  });
  const model = form.model.trim();
  const builtin = useApiQuery({ queryKey: queryKeys.manage('connections', 'profile', model), queryFn: () => adminApi.builtinProfile(model), enabled: model !== '' });
  const save = useApiMutation({
    mutationFn: (input: EndpointInput) => (endpoint ? adminApi.changeEndpoint(endpoint.id, input) : adminApi.addEndpoint(input)),
    onSuccess: (listing) => {
      settle(listing);
      onClose();
    },
  });
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const profile: ModelProfileWire = {
      ...(numberOrUndefined(form.context_window) !== undefined && { context_window: numberOrUndefined(form.context_window) }),
      ...(numberOrUndefined(form.max_output_tokens) !== undefined && { max_output_tokens: numberOrUndefined(form.max_output_tokens) }),
      ...(form.reasoning !== '' && { reasoning: form.reasoning as ModelProfileWire['reasoning'] }),
      // A price is both figures or none: half a price would make every cost figure wrong.
      ...(form.promptPrice.trim() !== '' &&
        form.completionPrice.trim() !== '' && { price: { prompt_per_million: Number(form.promptPrice), completion_per_million: Number(form.completionPrice), currency: form.currency.trim() } }),
    };
    // The key field is write-only: left empty it keeps the saved key, unless "remove" is ticked.
    const api_key = form.clearKey ? null : form.api_key.trim() === '' ? undefined : form.api_key;
    save.mutate({ base_url: form.base_url.trim(), model, roles: form.roles, profile, ...(api_key !== undefined && { api_key }) });
  }

  const placeholder = (value: number | undefined) => (value === undefined ? '' : t('manage.connections.profile.builtin', { value }));
  return (
    <Dialog title={endpoint ? t('manage.connections.models.editTitle') : t('manage.connections.models.addTitle')} onClose={onClose} busy={save.isPending} className="connection-dialog">
      <form className="connection-form" onSubmit={submit}>
        {save.error && <ErrorBanner error={save.error} />}
        <Field label={t('manage.connections.fields.baseUrl')} hint={t('manage.connections.fields.baseUrlHint')}>
          <input className="input" type="url" value={form.base_url} onChange={(event) => set({ base_url: event.target.value })} placeholder="https://api.deepseek.com/v1" required />
        </Field>
        <Field label={t('manage.connections.fields.model')}>
          <input className="input" value={form.model} onChange={(event) => set({ model: event.target.value })} placeholder="deepseek-chat" required />
        </Field>
        <Field label={t('manage.connections.fields.apiKey')} hint={endpoint?.key.set ? t('manage.connections.fields.apiKeyKeep') : t('manage.connections.fields.apiKeyHint')}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={form.api_key}
            disabled={form.clearKey}
            onChange={(event) => set({ api_key: event.target.value })}
            placeholder={endpoint?.key.set ? (endpoint.key.last4 ? `••••${endpoint.key.last4}` : '••••') : 'sk-…'}
          />
        </Field>
        {endpoint?.key.set && (
          <label className="checkbox-label">
            <input type="checkbox" checked={form.clearKey} onChange={(event) => set({ clearKey: event.target.checked })} />
            {t('manage.connections.fields.clearKey')}
          </label>
        )}
        <fieldset className="connection-roles">
          <legend>{t('manage.connections.fields.roles')}</legend>
          {roles.map((role) => {
            const holder = taken.get(role);
            return (
              <label key={role} className="checkbox-label" title={holder ? t('manage.connections.fields.roleTaken', { model: holder }) : undefined}>
                <input
                  type="checkbox"
                  checked={form.roles.includes(role)}
                  disabled={holder !== undefined}
                  onChange={(event) => set({ roles: event.target.checked ? [...form.roles, role] : form.roles.filter((candidate) => candidate !== role) })}
                />
                {t(`manage.connections.roles.${role}`, { defaultValue: role })}
                {holder && <span className="muted"> · {holder}</span>}
              </label>
            );
          })}
        </fieldset>
        <fieldset className="connection-profile-fields">
          <legend>{t('manage.connections.profile.title')}</legend>
          <p className="muted">{t('manage.connections.profile.hint')}</p>
          <div className="connection-form-row">
            <Field label={t('manage.connections.profile.window')}>
              <input className="input" type="number" min={1024} value={form.context_window} onChange={(event) => set({ context_window: event.target.value })} placeholder={placeholder(builtin.data?.context_window)} />
            </Field>
            <Field label={t('manage.connections.profile.output')}>
              <input className="input" type="number" min={16} value={form.max_output_tokens} onChange={(event) => set({ max_output_tokens: event.target.value })} placeholder={placeholder(builtin.data?.max_output_tokens)} />
            </Field>
            <Field label={t('manage.connections.profile.reasoningLabel')}>
              <Select
                value={form.reasoning === '' ? 'builtin' : form.reasoning}
                onChange={(value) => set({ reasoning: value === 'builtin' ? '' : value })}
                label={t('manage.connections.profile.reasoningLabel')}
                options={[
                  { value: 'builtin', label: t('manage.connections.profile.builtinReasoning', { value: t(`manage.connections.profile.reasoning.${builtin.data?.reasoning ?? 'none'}`) }) },
                  ...REASONING.map((value) => ({ value, label: t(`manage.connections.profile.reasoning.${value}`) })),
                ]}
              />
            </Field>
          </div>
          <div className="connection-form-row">
            <Field label={t('manage.connections.profile.promptPrice')}>
              <input className="input" type="number" min={0} step="any" value={form.promptPrice} onChange={(event) => set({ promptPrice: event.target.value })} />
            </Field>
            <Field label={t('manage.connections.profile.completionPrice')}>
              <input className="input" type="number" min={0} step="any" value={form.completionPrice} onChange={(event) => set({ completionPrice: event.target.value })} />
            </Field>
            <Field label={t('manage.connections.profile.currency')}>
              <input className="input" value={form.currency} maxLength={8} onChange={(event) => set({ currency: event.target.value })} />
            </Field>
          </div>
        </fieldset>
        <div className="form-actions">
          <button className="button button-secondary" type="button" onClick={onClose} disabled={save.isPending}>
            {t('manage.connections.cancel')}
          </button>
          <button className="button button-primary" type="submit" disabled={save.isPending || form.roles.length === 0}>
            {save.isPending ? t('manage.connections.saving') : t('manage.connections.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A labelled input; the hint sits outside the label, so the field's name stays the label alone. */
function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="connection-field">
      <label className="editor-field">
        <span>{label}</span>
        {children}
      </label>
      {hint && <small className="muted">{hint}</small>}
    </div>
  );
}

/** One of the single connections: its form, Save, Clear and Test, and what the test said. */
function SingleSection({ which, title, hint, configured, last, save, saving, saveError, children, extra }: {
  which: SingleConnection;
  title: string;
  hint: string;
  configured: boolean;
  last: ConnectionTestRecord | null;
  save: () => void;
  saving: boolean;
  saveError: ApiError | null;
  children: ReactNode;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('account');
  const clear = useApiMutation({ mutationFn: () => adminApi.clearConnection(which), onSuccess: settle });
  const test = useApiMutation({ mutationFn: () => adminApi.testConnection(which), onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }) });
  return (
    <section className="connection-section" aria-labelledby={`connections-${which}`}>
      <div className="connection-section-head">
        <div>
          <h2 id={`connections-${which}`}>{title}</h2>
          <p className="muted">{hint}</p>
        </div>
        {extra}
      </div>
      <form
        className="connection-card connection-form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        {(saveError ?? clear.error) && <ErrorBanner error={(saveError ?? clear.error)!} />}
        <div className="connection-form-row">{children}</div>
        <div className="connection-actions">
          <button className="button button-primary button-small" type="submit" disabled={saving}>
            {saving ? t('manage.connections.saving') : t('manage.connections.save')}
          </button>
          <TestButton pending={test.isPending} onClick={() => test.mutate()} disabled={!configured} />
          <button className="button button-secondary button-small" type="button" onClick={() => clear.mutate()} disabled={!configured || clear.isPending}>
            {t('manage.connections.clear')}
          </button>
          {!configured && <span className="muted">{t('manage.connections.notSet')}</span>}
        </div>
        <TestOutcome result={test.data} error={test.error} last={last} />
      </form>
    </section>
  );
}

function SearchSection({ data }: { data: Connections }) {
  const { t } = useTranslation('account');
  const [url, setUrl] = useState(data.search?.url ?? '');
  const save = useApiMutation({ mutationFn: () => adminApi.setSearch(url.trim()), onSuccess: settle });
  return (
    <SingleSection which="search" title={t('manage.connections.search.title')} hint={t('manage.connections.search.hint')} configured={data.search !== null} last={data.search?.last_test ?? null} save={() => save.mutate()} saving={save.isPending} saveError={save.error}>
      <Field label={t('manage.connections.fields.searchUrl')}>
        <input className="input" type="url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="http://searxng:8080" required />
      </Field>
    </SingleSection>
  );
}

function SmtpSection({ data }: { data: Connections }) {
  const { t } = useTranslation('account');
  const [form, setForm] = useState({ url: data.smtp?.url ?? '', from: data.smtp?.from ?? '', password: '' });
  const save = useApiMutation({
    mutationFn: () => adminApi.setSmtp({ url: form.url.trim(), from: form.from.trim(), ...(form.password !== '' && { password: form.password }) }),
    onSuccess: (listing) => {
      settle(listing);
      setForm((current) => ({ ...current, password: '' }));
    },
  });
  return (
    <SingleSection
      which="smtp"
      title={t('manage.connections.smtp.title')}
      hint={t('manage.connections.smtp.hint')}
      configured={data.smtp !== null}
      last={data.smtp?.last_test ?? null}
      save={() => save.mutate()}
      saving={save.isPending}
      saveError={save.error}
      extra={data.smtp && <KeyHint hint={data.smtp.password} label={t('manage.connections.fields.password')} />}
    >
      <Field label={t('manage.connections.fields.smtpUrl')}>
        <input className="input" value={form.url} onChange={(event) => setForm({ ...form, url: event.target.value })} placeholder="smtps://user@smtp.example.com:465" required />
      </Field>
      <Field label={t('manage.connections.fields.password')} hint={data.smtp?.password.set ? t('manage.connections.fields.apiKeyKeep') : undefined}>
        <input className="input" type="password" autoComplete="new-password" value={form.password} onChange={(event) => setForm({ ...form, password: event.target.value })} placeholder={data.smtp?.password.set ? '••••' : ''} />
      </Field>
      <Field label={t('manage.connections.fields.from')}>
        <input className="input" value={form.from} onChange={(event) => setForm({ ...form, from: event.target.value })} placeholder={t('manage.connections.fields.fromPlaceholder')} required />
      </Field>
    </SingleSection>
  );
}

function SpeechSection({ data }: { data: Connections }) {
  const { t } = useTranslation('account');
  const [form, setForm] = useState({ base_url: data.speech?.base_url ?? '', model: data.speech?.model ?? 'whisper-1', api_key: '' });
  const save = useApiMutation({
    mutationFn: () => adminApi.setSpeech({ base_url: form.base_url.trim(), model: form.model.trim(), ...(form.api_key !== '' && { api_key: form.api_key }) }),
    onSuccess: (listing) => {
      settle(listing);
      setForm((current) => ({ ...current, api_key: '' }));
    },
  });
  return (
    <SingleSection
      which="speech"
      title={t('manage.connections.speech.title')}
      hint={t('manage.connections.speech.hint')}
      configured={data.speech !== null}
      last={data.speech?.last_test ?? null}
      save={() => save.mutate()}
      saving={save.isPending}
      saveError={save.error}
      extra={data.speech && <KeyHint hint={data.speech.key} />}
    >
      <Field label={t('manage.connections.fields.baseUrl')}>
        <input className="input" type="url" value={form.base_url} onChange={(event) => setForm({ ...form, base_url: event.target.value })} placeholder="https://api.openai.com/v1" required />
      </Field>
      <Field label={t('manage.connections.fields.apiKey')} hint={data.speech?.key.set ? t('manage.connections.fields.apiKeyKeep') : undefined}>
        <input className="input" type="password" autoComplete="new-password" value={form.api_key} onChange={(event) => setForm({ ...form, api_key: event.target.value })} placeholder={data.speech?.key.set ? '••••' : 'sk-…'} />
      </Field>
      <Field label={t('manage.connections.fields.model')}>
        <input className="input" value={form.model} onChange={(event) => setForm({ ...form, model: event.target.value })} required />
      </Field>
    </SingleSection>
  );
}
