import { useEffect, useEffectEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { agentsApi, type ToolDescriptor, type ToolTestResult } from './api.ts';
import { refusalMessage } from '../api/client.ts';
import { useApiMutation } from '../api/query.ts';
import { exampleArgs, parseArgs } from './toolArgs.ts';
import { SparklesIcon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';
import '../ui/ui.css';

/** Runs one of the agent's tools with typed-in arguments and shows what came back. */
export function ToolTester({ tools, agentId, onRan }: { tools: readonly ToolDescriptor[]; agentId?: string; onRan?: () => void }) {
  const { t } = useTranslation('agents');
  const ids = useId();
  const [name, setName] = useState(tools[0]?.name ?? '');
  const tool = tools.find((candidate) => candidate.name === name);
  const [text, setText] = useState('');
  const [result, setResult] = useState<ToolTestResult | { ok: false; error: string; code?: undefined; params?: undefined } | null>(null);
  const parsed = parseArgs(text);
  const test = useApiMutation({
    mutationFn: ({ tool, args }: { tool: string; args: Record<string, unknown> }) => agentsApi.testTool(tool, args, agentId),
    onSuccess: (answer) => {
      setResult(answer);
      onRan?.();
    },
    onError: (error) => setResult({ ok: false, error: error.userMessage }),
  });

  useEffect(() => {
    if (!tools.some((candidate) => candidate.name === name)) setName(tools[0]?.name ?? '');
  }, [tools, name]);
  const showExample = useEffectEvent(() => {
    if (tool) setText(JSON.stringify(exampleArgs(tool), null, 2));
    setResult(null);
  });
  // Keyed on the name: the list is fetched again after each run, and that must not wipe the result.
  const toolName = tool?.name;
  useEffect(() => showExample(), [toolName]);

  if (!tool) return null;
  // The result shown answered the arguments as they were: edited, they have no result yet.
  const edit = (value: string) => {
    setText(value);
    setResult(null);
  };
  const run = () => {
    if (parsed.ok) test.mutate({ tool: tool.name, args: parsed.args });
  };

  return (
    <section className="surface-card agent-tester">
      <h2>{t('tester.title')}</h2>
      <p className="muted">{t('tester.hint')}</p>
      <label htmlFor={`${ids}-tool`}>{t('tester.tool')}</label>
      <Select id={`${ids}-tool`} value={name} onChange={setName} options={tools.map((candidate) => ({ value: candidate.name, label: candidate.name }))} />
      <p className="muted small">{t(`tools.${tool.name}`, { defaultValue: tool.description })}</p>
      <label htmlFor={`${ids}-args`}>{t('tester.args')}</label>
      <textarea id={`${ids}-args`} rows={5} value={text} spellCheck={false} className="input agent-json" aria-invalid={parsed.ok ? undefined : true} onChange={(event) => edit(event.target.value)} />
      {!parsed.ok && <p className="field-error">{t('tester.invalidArgs')}</p>}
      <div className="agent-actions">
        <button type="button" className="button button-primary button-small" disabled={test.isPending || !parsed.ok} onClick={run}>
          {test.isPending ? <span className="spinner spinner-small" /> : <SparklesIcon size={14} />}
          {t('tester.run')}
        </button>
      </div>
      {result && (
        <div className={`agent-result ${result.ok ? 'ok' : 'failed'}`} role="status">
          <strong>
            {t('tester.result')} · {result.ok ? t('monitor.ok') : t('monitor.fail')}
            {'duration_ms' in result && ` · ${t('monitor.ms', { count: result.duration_ms })}`}
          </strong>
          <pre>{result.ok ? JSON.stringify(result.result, null, 2) : refusalMessage({ error_message: result.error, code: result.code, params: result.params })}</pre>
        </div>
      )}
    </section>
  );
}
