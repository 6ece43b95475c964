import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GUIDANCE_ITEMS, markSeen, pendingTips, setGuidanceEnabled, type GuidanceItem } from '../research/guidance.ts';
import { Icon } from './Icon.tsx';

/** First-visit tips, one at a time in priority order, each pointing at the element it explains. */
export function GuidanceTips() {
  const { t } = useTranslation();
  const [tip, setTip] = useState<GuidanceItem | null>(null);
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const next = pendingTips(GUIDANCE_ITEMS, localStorage, (selector) => document.querySelector(selector) !== null)[0];
    if (!next) return;
    const timer = setTimeout(() => {
      const element = next.component ? document.querySelector(next.component) : null;
      setAnchor(element?.getBoundingClientRect() ?? null);
      setTip(next);
    }, next.delay);
    return () => clearTimeout(timer);
  }, [round]);

  if (!tip) return null;
  const dismiss = () => {
    markSeen(localStorage, tip.id);
    setTip(null);
    setRound((value) => value + 1);
  };
  const style: React.CSSProperties = {};
  if (anchor && tip.position !== 'center') {
    if (tip.position === 'top') Object.assign(style, { left: anchor.left, bottom: window.innerHeight - anchor.top + 10 });
    if (tip.position === 'bottom') Object.assign(style, { left: anchor.left, top: anchor.bottom + 10 });
    if (tip.position === 'right') Object.assign(style, { left: anchor.right + 10, top: anchor.top });
    if (tip.position === 'left') Object.assign(style, { right: window.innerWidth - anchor.left + 10, top: anchor.top });
  }
  const centred = tip.position === 'center' || !anchor;
  return (
    <div className={`guidance ${centred ? 'guidance-center' : ''} guidance-${tip.size} guidance-${tip.theme}`} style={centred ? undefined : style} role="dialog" aria-label={t(tip.title as 'guidance.welcome.title')}>
      <div className="guidance-head">
        <Icon name={tip.id === 'welcome' ? 'sparkles' : 'info'} size={16} />
        <strong>{t(tip.title as 'guidance.welcome.title')}</strong>
      </div>
      <p>{t(tip.content as 'guidance.welcome.content')}</p>
      <div className="guidance-actions">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setGuidanceEnabled(localStorage, false);
            setTip(null);
          }}
        >
          {t('guidance.disable')}
        </button>
        <button type="button" className="button button-primary button-small" onClick={dismiss}>
          {t('guidance.gotIt')}
        </button>
      </div>
    </div>
  );
}
