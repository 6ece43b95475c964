import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fillingIn, fitsPage, FOCUS_FROM_APP, FORMS_IN_USE, GUIDANCE_ITEMS, KEEP_CLEAR, markSeen, overlaps, pendingTips, setGuidanceEnabled, type GuidanceItem, type GuidancePage } from '../research/guidance.ts';
import { InfoIcon, SparklesIcon } from '../ui/icons.ts';
import './guidance.css';

const pageNow = (welcomeScreen: boolean): GuidancePage => ({ present: (selector) => document.querySelector(selector) !== null, welcomeScreen });
const nextTip = (welcomeScreen: boolean): GuidanceItem | null => pendingTips(GUIDANCE_ITEMS, localStorage, pageNow(welcomeScreen))[0] ?? null;
const userIsFillingIn = () => fillingIn(document.activeElement, document.querySelectorAll(FORMS_IN_USE).length);

/**
 * First-visit tips, one at a time in priority order, each pointing at the element it explains. A tip
 * whose element appears later (the artifacts folder once a report exists) is shown then; none is shown
 * while the user is filling something in, so a tip never covers a form in use.
 */
export function GuidanceTips({ welcomeScreen }: { welcomeScreen: boolean }) {
  const { t } = useTranslation();
  const [filling, setFilling] = useState(userIsFillingIn);
  // A tip without delay is there in the view's first paint: the welcome tip is a first visit's
  // largest text, so a timer before it would hold back the page's largest contentful paint.
  const [tip, setTip] = useState<GuidanceItem | null>(() => {
    const next = nextTip(welcomeScreen);
    return next?.delay === 0 && next.component === undefined && !filling ? next : null;
  });
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  const [candidate, setCandidate] = useState<string | null>(() => nextTip(welcomeScreen)?.id ?? null);
  const welcome = useRef(welcomeScreen);
  welcome.current = welcomeScreen;
  // A tip that would sit on an open question stays laid out but unseen, so it can be measured again.
  const box = useRef<HTMLDivElement>(null);
  const [covering, setCovering] = useState(false);
  // Rectangles are read only when there is something to keep clear: reading one forces a layout,
  // and the page's start-up changes the document hundreds of times.
  const measure = useCallback(() => {
    const mine = box.current;
    const clear = mine ? document.querySelectorAll(KEEP_CLEAR) : [];
    if (!mine || clear.length === 0) return setCovering(false);
    const rect = mine.getBoundingClientRect();
    setCovering([...clear].some((element) => overlaps(rect, element.getBoundingClientRect())));
  }, []);
  useLayoutEffect(measure);

  // The page changes (panels open, reports arrive, forms come and go): look again for the next tip,
  // once per frame however many changes the frame brought.
  useEffect(() => {
    const look = () => {
      setCandidate(nextTip(welcome.current)?.id ?? null);
      setFilling(userIsFillingIn());
      measure();
    };
    let frame: number | null = null;
    const lookNextFrame = () => {
      frame ??= requestAnimationFrame(() => {
        frame = null;
        look();
      });
    };
    look();
    const observer = new MutationObserver(lookNextFrame);
    // The user acting in a field the app focused makes it theirs (the mark goes): look again then too.
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: [FOCUS_FROM_APP] });
    document.addEventListener('focusin', look);
    document.addEventListener('focusout', look);
    return () => {
      if (frame !== null) cancelAnimationFrame(frame);
      observer.disconnect();
      document.removeEventListener('focusin', look);
      document.removeEventListener('focusout', look);
    };
  }, [welcomeScreen, measure]);

  // The user has moved on from what the tip is about (the welcome screen gave way to a conversation):
  // it would now cover the page for nothing, so it goes, counted as seen.
  useEffect(() => {
    if (!tip || fitsPage(tip, { present: () => true, welcomeScreen })) return;
    markSeen(localStorage, tip.id);
    setTip(null);
  }, [tip, welcomeScreen]);

  useEffect(() => {
    const next = GUIDANCE_ITEMS.find((item) => item.id === candidate);
    if (tip || !next || filling) return;
    const timer = setTimeout(() => {
      const element = next.component ? document.querySelector(next.component) : null;
      setAnchor(element?.getBoundingClientRect() ?? null);
      setTip(next);
    }, next.delay);
    return () => clearTimeout(timer);
  }, [candidate, filling, tip]);

  const dismiss = useCallback((shown: GuidanceItem) => {
    markSeen(localStorage, shown.id);
    setTip(null);
    setCandidate(nextTip(welcome.current)?.id ?? null);
  }, []);

  // Escape puts a tip away as "got it" does, unless a dialog or a menu open over the page takes it.
  useEffect(() => {
    if (!tip || filling) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"], [role="menu"], [role="listbox"]')) return;
      dismiss(tip);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [tip, filling, dismiss]);

  // A form the user turns to hides the tip; it comes back once they are done.
  if (!tip || filling) return null;
  const style: React.CSSProperties = {};
  if (anchor && tip.position !== 'center') {
    // Near the right edge a tip opens leftwards from its element, so it stays on screen.
    const horizontal = anchor.left > window.innerWidth / 2 ? { right: window.innerWidth - anchor.right } : { left: anchor.left };
    if (tip.position === 'top') Object.assign(style, { ...horizontal, bottom: window.innerHeight - anchor.top + 10 });
    if (tip.position === 'bottom') Object.assign(style, { ...horizontal, top: anchor.bottom + 10 });
    if (tip.position === 'right') Object.assign(style, { left: anchor.right + 10, top: anchor.top });
    if (tip.position === 'left') Object.assign(style, { right: window.innerWidth - anchor.left + 10, top: anchor.top });
  }
  const centred = tip.position === 'center' || !anchor;
  return (
    <div
      ref={box}
      className={`guidance ${centred ? 'guidance-center' : ''} guidance-${tip.size} guidance-${tip.theme}`}
      style={{ ...(centred ? {} : style), ...(covering && { visibility: 'hidden' }) }}
      role="dialog" aria-label={t(tip.title as 'guidance.welcome.title')}>
      <div className="guidance-head">
        {tip.id === 'welcome' ? <SparklesIcon size={16} /> : <InfoIcon size={16} />}
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
        <button type="button" className="button button-primary button-small" onClick={() => dismiss(tip)}>
          {t('guidance.gotIt')}
        </button>
      </div>
    </div>
  );
}
