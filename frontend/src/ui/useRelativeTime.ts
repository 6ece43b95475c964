import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../i18n/language.ts';
import { relativeTime } from './relativeTime.ts';

/** The current time, refreshed every `everyMs` so "3 minutes ago" keeps up while the page is open. */
function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Formats a timestamp the spec's way (just now, minutes, hours, then the date) in the chosen language. */
export function useRelativeTime(): (value: string | null | undefined) => string {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  const locale = intlLocale(i18n.language);
  return useCallback(
    (value) => {
      const time = relativeTime(value, now);
      switch (time.kind) {
        case 'unknown':
          return t('time.unknown');
        case 'invalid':
          return t('time.invalid');
        case 'justNow':
          return t('time.justNow');
        case 'minutes':
          return t('time.minutes', { count: time.count });
        case 'hours':
          return t('time.hours', { count: time.count });
        case 'date':
          return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(time.date);
      }
    },
    [t, now, locale],
  );
}

/** Full date and time for a tooltip beside a relative time. */
export function useExactTime(): (value: string | null | undefined) => string | undefined {
  const { i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  return useCallback(
    (value) => {
      const date = value ? new Date(value) : null;
      return date && !Number.isNaN(date.getTime()) ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date) : undefined;
    },
    [locale],
  );
}
