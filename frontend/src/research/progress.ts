import type { TFunction } from 'i18next';
import type { ContentOf } from '@scriptorium/domain/protocol/content';
import { currentLanguage } from '../i18n/index.ts';
import { intlLocale } from '../i18n/language.ts';

/**
 * An info item in the user's language: from its progress code when it has one; an entry from
 * before codes (or one without a code, such as a notice) shows the text it came with.
 */
export function infoText(t: TFunction, item: ContentOf<'info'>): string {
  const progress = item.progress;
  if (!progress) return item.content;
  switch (progress.code) {
    case 'research.localSearch':
    case 'research.noMaterial':
      return t(`progress.${progress.code}`, { why: t(`progress.why.${progress.params.reason}`) });
    case 'research.searchFailed':
      return t('progress.research.searchFailed', { query: progress.params.query });
    case 'research.continuing':
      return t('progress.research.continuing', { steps: progress.params.steps, sections: progress.params.sections });
    case 'research.rulesFallback':
      return t('progress.research.rulesFallback', { call: t(`progress.call.${progress.params.call}`) });
    case 'research.sectionRetry':
    case 'research.sectionEmpty':
    case 'research.sectionCapped':
      return t(`progress.${progress.code}`, { section: progress.params.section });
    case 'research.followUp':
      return t('progress.research.followUp', { section: progress.params.section, reason: progress.params.reason, queries: progress.params.queries.join(t('progress.listSeparator')) });
    case 'research.citationsChecked':
      return t('progress.research.citationsChecked', { ...progress.params });
    case 'research.editChecked':
      return t('progress.research.editChecked', { ...progress.params });
    case 'research.waitingForModel':
      return t('progress.research.waitingForModel', { time: new Date(progress.params.until).toLocaleTimeString(intlLocale(currentLanguage())) });
    case 'research.instructionApplied':
      return t('progress.research.instructionApplied', { instruction: progress.params.instruction, change: t(`progress.research.instructionTo.${progress.params.to}`) });
    case 'research.instructionLate':
      return t('progress.research.instructionLate', { instruction: progress.params.instruction });
    case 'research.planRevised': {
      const list = (steps: readonly string[]) => steps.join(t('progress.listSeparator'));
      const changes = [
        ...(progress.params.removed.length > 0 ? [t('progress.research.planRemoved', { steps: list(progress.params.removed) })] : []),
        ...(progress.params.added.length > 0 ? [t('progress.research.planAdded', { steps: list(progress.params.added) })] : []),
      ];
      return t('progress.research.planRevised', { instruction: progress.params.instruction, change: changes.join(t('progress.clauseSeparator')) });
    }
    case 'research.tokensUsed':
      return t('progress.research.tokensUsed', { tokens: progress.params.tokens.toLocaleString(intlLocale(currentLanguage())) });
    case 'research.budgetLow': {
      const locale = intlLocale(currentLanguage());
      return t('progress.research.budgetLow', { remaining: progress.params.remaining.toLocaleString(locale), estimate: progress.params.estimate.toLocaleString(locale) });
    }
    case 'research.attachedRead':
    case 'research.attachedLate':
      return t(`progress.${progress.code}`, { count: progress.params.count, titles: progress.params.titles.join(t('progress.listSeparator')) });
    default:
      return t(`progress.${progress.code}`);
  }
}
