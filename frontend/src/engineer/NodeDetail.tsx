import { useTranslation } from 'react-i18next';
import { nodeRevision, type EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { refusalInReadersLanguage } from '../i18n/index.ts';
import { errorNodeText, messageNodeText } from './tree.ts';
import { intlLocale } from '../i18n/language.ts';

function Payload({ node }: { node: EngineerNode }) {
  const { t } = useTranslation('engineer');
  switch (node.node_type) {
    case 'message':
      return (
        <>
          <h4>{t(`detail.role.${node.payload.role}`)}</h4>
          <div className="engineer-text">{messageNodeText(node.payload, refusalInReadersLanguage)}</div>
        </>
      );
    case 'thought':
      return <div className="engineer-text">{node.payload.text}</div>;
    case 'tool_call':
      return (
        <>
          <h4>{node.payload.name}</h4>
          <div>
            <pre>{JSON.stringify(node.payload.arguments, null, 2)}</pre>
          </div>
          {node.payload.result !== undefined && (
            <>
              <h4>{t('detail.result')}</h4>
              <div>
                <pre>{node.payload.result}</pre>
              </div>
            </>
          )}
        </>
      );
    case 'command':
      return (
        <div>
          <pre>$ {node.payload.command}</pre>
        </div>
      );
    case 'output':
      return (
        <>
          {node.payload.exit_code !== undefined && node.payload.exit_code !== null && <h4>{t('detail.exitCode', { code: node.payload.exit_code })}</h4>}
          <div>
            <pre>{node.payload.text || t('detail.noOutput')}</pre>
          </div>
        </>
      );
    case 'file_change':
      return (
        <>
          <h4>
            {node.payload.change} {node.payload.path}
          </h4>
          {node.payload.diff !== undefined && (
            <div>
              <pre>{node.payload.diff}</pre>
            </div>
          )}
        </>
      );
    case 'error':
      return <div className="engineer-text is-error">{errorNodeText(node.payload, refusalInReadersLanguage)}</div>;
  }
}

/** Everything one node holds, laid out by its type. */
export function NodeDetail({ node }: { node: EngineerNode | null }) {
  const { t, i18n } = useTranslation('engineer');
  return (
    <aside className="engineer-detail" aria-label={t('detail.title')}>
      <h3>{t('detail.title')}</h3>
      {node === null ? (
        <p className="muted">{t('detail.none')}</p>
      ) : (
        <div className="engineer-payload">
          <div className="engineer-facts">
            <span>{t(`nodeType.${node.node_type}`)}</span>
            <span>{t(`nodeStatus.${node.status}`)}</span>
            <time>{new Date(node.timestamp).toLocaleString(intlLocale(i18n.language))}</time>
            {node.tokens !== undefined && <span>{`${t('detail.tokens')} ${node.tokens}`}</span>}
            {nodeRevision(node) > 1 && <span>{t('detail.revision', { revision: nodeRevision(node) })}</span>}
          </div>
          {node.title !== undefined && <h4>{node.title}</h4>}
          <Payload node={node} />
        </div>
      )}
    </aside>
  );
}
