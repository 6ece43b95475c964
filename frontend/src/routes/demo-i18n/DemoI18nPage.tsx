import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../app/shell/LanguageSwitch.tsx';
import { compareLanguages, filterRows, type KeyRow } from '../../i18n/compare.ts';
import { normaliseLanguage, type Language } from '../../i18n/language.ts';
import { resources } from '../../i18n/resources.ts';
import { Select } from '../../ui/Select.tsx';
import { CircleCheckIcon, SearchIcon, TriangleAlertIcon } from '../../ui/icons.ts';
import './demo-i18n.css';

const LANGUAGES: readonly Language[] = ['zh', 'en'];
const LANG_ATTRIBUTE: Record<Language, string> = { zh: 'zh-CN', en: 'en' };

/** /demo/i18n: every namespace in zh and en side by side, what is missing in either, and the live switch. */
export default function DemoI18nPage() {
  const { t, i18n } = useTranslation();
  const current = normaliseLanguage(i18n.language);
  // The bundled resources never change while the page is open.
  const comparison = useMemo(() => compareLanguages(resources), []);
  const [namespace, setNamespace] = useState('');
  const [query, setQuery] = useState('');
  const [missingOnly, setMissingOnly] = useState(false);
  const deferredQuery = useDeferredValue(query);
  const rows = useMemo(() => filterRows(comparison.rows, { namespace, query: deferredQuery, missingOnly }), [comparison, namespace, deferredQuery, missingOnly]);
  const searchId = useId();
  const missingCount = comparison.missing.zh.length + comparison.missing.en.length;

  return (
    <div className="i18n-page">
      <header className="i18n-head">
        <div>
          <h1>{t('screens.demoI18n')}</h1>
          <p className="muted">{t('i18nDemo.intro')}</p>
        </div>
        <div className="i18n-switch">
          <span className="muted small">{t('i18nDemo.languageNow')}</span>
          <LanguageSwitch />
        </div>
      </header>

      <dl className="i18n-stats">
        <Stat label={t('i18nDemo.stats.namespaces')} value={comparison.namespaces.length} />
        <Stat label={t('i18nDemo.stats.keys')} value={comparison.rows.length} />
        <Stat label={t('i18nDemo.stats.missingZh')} value={comparison.missing.zh.length} tone={comparison.missing.zh.length ? 'danger' : 'success'} testId="missing-zh" />
        <Stat label={t('i18nDemo.stats.missingEn')} value={comparison.missing.en.length} tone={comparison.missing.en.length ? 'danger' : 'success'} testId="missing-en" />
      </dl>

      {missingCount === 0 ? (
        <p className="banner i18n-complete" role="status">
          <CircleCheckIcon size={18} />
          {t('i18nDemo.complete')}
        </p>
      ) : (
        <section className="banner banner-error i18n-missing" aria-labelledby="i18n-missing-title">
          <h2 id="i18n-missing-title">
            <TriangleAlertIcon size={18} />
            {t('i18nDemo.missingTitle')} · {t('i18nDemo.incomplete', { count: missingCount })}
          </h2>
          <ul>
            {LANGUAGES.flatMap((language) =>
              comparison.missing[language].map((row) => (
                <li key={`${language}:${row.namespace}:${row.key}`}>
                  <code>
                    {row.namespace}:{row.key}
                  </code>{' '}
                  {t(`i18nDemo.missingIn.${language}`)}
                </li>
              )),
            )}
          </ul>
        </section>
      )}

      <div className="i18n-filters" role="search">
        <label className="i18n-search" htmlFor={searchId}>
          <span className="sr-only">{t('i18nDemo.search')}</span>
          <SearchIcon size={16} />
          <input id={searchId} type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('i18nDemo.searchPlaceholder')} />
        </label>
        <Select
          label={t('i18nDemo.namespace')}
          value={namespace}
          onChange={setNamespace}
          options={[{ value: '', label: t('i18nDemo.allNamespaces') }, ...comparison.namespaces.map((name) => ({ value: name, label: name }))]}
        />
        <label className="i18n-check">
          <input type="checkbox" checked={missingOnly} onChange={(event) => setMissingOnly(event.target.checked)} />
          {t('i18nDemo.missingOnly')}
        </label>
        <span className="muted small i18n-shown" role="status">
          {t('i18nDemo.shown', { shown: rows.length, total: comparison.rows.length })}
        </span>
      </div>

      <table className="i18n-table">
        <caption className="sr-only">{t('i18nDemo.caption')}</caption>
        <thead className="sr-only-compact">
          <tr>
            <th scope="col">{t('i18nDemo.columns.namespace')}</th>
            <th scope="col">{t('i18nDemo.columns.key')}</th>
            {LANGUAGES.map((language) => (
              <th scope="col" key={language} className={language === current ? 'i18n-current' : undefined}>
                {t(`i18nDemo.columns.${language}`)}
                {language === current && <span className="badge badge-primary">{t('i18nDemo.current')}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Row key={`${row.namespace}:${row.key}`} row={row} missing={t('i18nDemo.missing')} />
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="muted i18n-empty">{t('i18nDemo.empty')}</p>}
    </div>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: number; tone?: 'success' | 'danger'; testId?: string }) {
  return (
    <div className={`i18n-stat${tone ? ` tone-${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function Row({ row, missing }: { row: KeyRow; missing: string }) {
  return (
    <tr>
      <td className="i18n-ns">{row.namespace}</td>
      <th scope="row" className="i18n-key">
        <code>{row.key}</code>
      </th>
      {LANGUAGES.map((language) => {
        const text = row[language];
        return text?.trim() ? (
          <td key={language} lang={LANG_ATTRIBUTE[language]}>
            {text}
          </td>
        ) : (
          <td key={language} className="i18n-gap">
            <span className="badge badge-danger">{missing}</span>
          </td>
        );
      })}
    </tr>
  );
}
