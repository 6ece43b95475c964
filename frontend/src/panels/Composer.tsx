import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { recognise, researchBudget, speechStatus, uploadFile } from '../api/research.ts';
import { fullPath } from '../app/guard.ts';
import { preloadMarkdown } from '../components/Markdown.tsx';
import { clampInputHeight, INPUT_MIN_HEIGHT } from '../research/editReport.ts';
import { isRestoring, type ResearchSessionRef } from '../machines/researchSession.ts';
import { useSessionView } from '../research/live.ts';
import { redirectsResearch } from '../research/conversation.ts';
import { CircleAlertIcon, GlobeIcon, LightbulbIcon, MessageSquareIcon, MicIcon, PaperclipIcon, PauseIcon, SendIcon, XIcon } from '../ui/icons.ts';
import { Segmented } from '../ui/Segmented.tsx';
import { handFocus } from '../ui/returnFocus.ts';
import { currentLanguage } from '../i18n/index.ts';
import { intlLocale } from '../i18n/language.ts';

const INPUT_HEIGHT_KEY = 'research_input_height';

/**
 * What was typed while signed out, kept in the tab until it is sent or cleared: signing in leaves
 * the page and comes back to a new composer, which starts from it.
 */
const DRAFT_KEY = 'composer_draft';
const storedDraft = (): string => sessionStorage.getItem(DRAFT_KEY) ?? '';
function keepDraft(text: string): void {
  if (text.trim() === '') sessionStorage.removeItem(DRAFT_KEY);
  else sessionStorage.setItem(DRAFT_KEY, text);
}

/**
 * What is typed and not yet sent, per session: a new layout (the page settling on its first load, a
 * panel opening) replaces the composer, and the new one carries on from the same text.
 */
const unsentText = new WeakMap<object, string>();
const NO_SESSION = {};

/**
 * A new layout (the first message swaps the welcome screen for the conversation, a report arriving
 * opens the canvas) rebuilds every panel, and what had focus in them goes with them: the focus goes
 * to the composer arriving (within a moment, so that a later composer never takes focus it was not
 * handed) rather than to the page's start.
 */
const FOCUS_CARRY_MS = 1000;
let carryFocusUntil = 0;

/** Called by the workspace before it replaces the panels: golden-layout removes their frames before React unmounts them. */
export function carryComposerFocus(from: Node | null): void {
  if (from?.contains(document.activeElement)) carryFocusUntil = performance.now() + FOCUS_CARRY_MS;
}

/** The text input panel: mode, search, attachments, voice, send and pause. */
export function Composer({ session: ref, signedIn }: { session: ResearchSessionRef | null; signedIn: boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const session = useSessionView(ref, (snapshot) => ({
    id: snapshot.context.id,
    error: snapshot.context.error,
    readOnly: snapshot.context.readOnly,
    mode: snapshot.context.mode,
    searchEnabled: snapshot.context.searchEnabled,
    busy: snapshot.context.conversation.busy,
    redirecting: redirectsResearch(snapshot.context.conversation),
    // A pause on its way (slow or offline, it may take seconds to be answered or refused).
    pausing: snapshot.context.outbox.some((pending) => pending.command.kind === 'pause' && pending.error === null),
    restoring: isRestoring(snapshot),
    ready: snapshot.matches('ready'),
  }));
  const error = session?.error ?? null;
  // The server says whether speech is configured; the recogniser itself is only called to recognise.
  const speech = useApiQuery({ queryKey: queryKeys.speech, queryFn: speechStatus, enabled: signedIn, staleTime: Infinity });
  const asr = speech.data?.configured === true;
  const researching = session?.mode === 1;
  const budget = useApiQuery({ queryKey: queryKeys.researchBudget, queryFn: researchBudget, enabled: signedIn && researching, staleTime: 30_000 });
  /** A research the budget may not cover waits here until the user goes on or lets it be. */
  const [budgetAsked, setBudgetAsked] = useState(false);
  const budgetAccepted = useRef(false);
  // Typed before the first visit's session existed, the text belongs to the session then made.
  const [text, setTextState] = useState(() => (ref && unsentText.get(ref)) ?? unsentText.get(NO_SESSION) ?? storedDraft());
  // Kept at once, not in a state update: sending can replace this composer before it renders again.
  const setText = (value: string) => {
    if (ref) unsentText.delete(NO_SESSION);
    unsentText.set(ref ?? NO_SESSION, value);
    setTextState(value);
  };
  const [height, setHeight] = useState(() => clampInputHeight(Number(localStorage.getItem(INPUT_HEIGHT_KEY)) || INPUT_MIN_HEIGHT + 30));
  const [needsLogin, setNeedsLogin] = useState(false);
  /** Sent before the session was ready (just made, or still loading): it goes once the session is. */
  const [sendWhenReady, setSendWhenReady] = useState(false);
  const [uploaded, setUploaded] = useState<string[]>([]);
  const upload = useApiMutation({
    mutationFn: ({ sessionId, file }: { sessionId: string; file: File }) => uploadFile(sessionId, file, file.type || 'application/octet-stream'),
    onSuccess: (_answer, { file }) => setUploaded((names) => [...names, file.name]),
    onError: (failure) => {
      console.warn('upload failed', failure);
      ref?.send({ type: 'error.shown', message: t('errors.uploadFailed') });
    },
  });
  const [recording, setRecording] = useState<MediaRecorder | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    if (performance.now() < carryFocusUntil) {
      carryFocusUntil = 0;
      handFocus(input.current);
    }
  }, []);

  const busy = session?.busy ?? false;
  // A research at work takes a message as an instruction for what it has still to do (a chat reply does not).
  const steering = busy && researching;
  const disabled = session?.readOnly === true || session?.restoring === true;

  const submit = () => {
    if (text.trim() === '') return setSendWhenReady(false);
    if (!signedIn) {
      setNeedsLogin(true);
      return;
    }
    if (researching && !busy && !budgetAccepted.current && budget.data?.enough === false) {
      setBudgetAsked(true);
      return;
    }
    setBudgetAsked(false);
    // The first visit's session is still being made (or is loading): the text waits in the box and goes once it is ready.
    const event = { type: 'conversation.send' as const, text };
    if (!ref?.getSnapshot().can(event)) {
      setSendWhenReady(true);
      return;
    }
    setSendWhenReady(false);
    ref.send(event);
    budgetAccepted.current = false;
    setText('');
    keepDraft('');
    if (researching) void queryClient.invalidateQueries({ queryKey: queryKeys.researchBudget });
    // The reply is Markdown and takes a round trip at least: its renderer arrives before it does.
    void preloadMarkdown();
  };

  const startAnyway = () => {
    budgetAccepted.current = true;
    submit();
  };
  const locale = intlLocale(currentLanguage());

  const ready = session?.ready === true;
  useEffect(() => {
    if (sendWhenReady && ready && signedIn) submit();
    // Only readiness arriving sends: `submit` reads the text as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sendWhenReady, ready, signedIn]);

  const startDrag = (event: React.PointerEvent) => {
    event.preventDefault();
    const startY = event.clientY;
    const startHeight = height;
    const move = (moveEvent: PointerEvent) => setHeight(clampInputHeight(startHeight + (startY - moveEvent.clientY)));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setHeight((value) => {
        localStorage.setItem(INPUT_HEIGHT_KEY, String(value));
        return value;
      });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const toggleRecording = async () => {
    if (recording) {
      recording.stop();
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      recorder.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        setRecording(null);
        recognise(new Blob(chunks, { type: recorder.mimeType }), i18n.language === 'en' ? 'en' : 'zh')
          .then((heard) => setText(`${unsentText.get(ref ?? NO_SESSION) ?? ''}${heard}`))
          .catch((failure: unknown) => console.warn('voice recognition failed', failure));
      };
      recorder.start();
      setRecording(recorder);
    } catch (failure) {
      console.warn('microphone unavailable', failure);
    }
  };

  return (
    <div className="composer-panel" style={{ minHeight: height }}>
      <div className="resize-handle" role="separator" aria-orientation="horizontal" aria-label={t('composer.resize')} onPointerDown={startDrag} />
      {(error || needsLogin) && (
        <div className="composer-alert" role="alert">
          <CircleAlertIcon size={14} />
          {needsLogin ? (
            <span>
              {t('composer.loginRequired')}
              <Link to={`/login?redirect=${encodeURIComponent(fullPath(location))}`}>{t('user.signIn')}</Link>
            </span>
          ) : (
            <span>{error}</span>
          )}
          <button type="button" className="icon-button tiny" aria-label={t('user.close')} onClick={() => (needsLogin ? setNeedsLogin(false) : ref?.send({ type: 'error.cleared' }))}>
            <XIcon size={12} />
          </button>
        </div>
      )}
      {budgetAsked && budget.data && (
        <div className="composer-alert budget-low" role="alert">
          <CircleAlertIcon size={14} />
          <span>{t('composer.budgetLow', { remaining: budget.data.remaining_tokens.toLocaleString(locale), estimate: budget.data.estimate_tokens.toLocaleString(locale) })}</span>
          <button type="button" className="button button-secondary button-small" onClick={() => setBudgetAsked(false)}>
            {t('composer.budgetLowCancel')}
          </button>
          <button type="button" className="button button-primary button-small" onClick={startAnyway}>
            <SendIcon size={14} />
            {t('composer.budgetLowGo')}
          </button>
        </div>
      )}
      <div className={`composer-box${disabled ? ' disabled' : ''}`}>
        <textarea
          ref={input}
          value={text}
          disabled={disabled}
          placeholder={disabled && session?.readOnly ? t('composer.readOnly') : t(steering ? 'composer.placeholderSteer' : researching && session?.redirecting ? 'composer.placeholderRedirect' : session?.mode === 0 ? 'composer.placeholderChat' : 'composer.placeholderResearch')}
          aria-label={t('composer.label')}
          onChange={(event) => {
            setText(event.target.value);
            // Signed in, a draft kept from before signing in follows the edits until it is sent.
            if (!signedIn || sessionStorage.getItem(DRAFT_KEY) !== null) keepDraft(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        {uploaded.length > 0 && (
          <div className="attachments">
            {uploaded.map((name) => (
              <span key={name} className="query-chip">
                <PaperclipIcon size={12} />
                {name}
              </span>
            ))}
          </div>
        )}
        <div className="composer-toolbar">
          <Segmented
            aria-label={t('composer.mode')}
            data-guide="input-mode"
            value={String(session?.mode ?? 1) as '1' | '0'}
            disabled={disabled || !session || busy}
            onChange={(mode) => ref?.send({ type: 'settings.mode', mode: mode === '1' ? 1 : 0 })}
            options={([1, 0] as const).map((mode) => ({
              value: String(mode) as '1' | '0',
              title: t(`composer.modeHint.${mode}`),
              label: (
                <>
                  {mode === 1 ? <LightbulbIcon size={14} /> : <MessageSquareIcon size={14} />}
                  {t(`composer.modes.${mode}`)}
                </>
              ),
            }))}
          />
          <button
            type="button"
            className={`toggle${session?.searchEnabled ?? true ? ' on' : ''}`}
            aria-pressed={session?.searchEnabled ?? true}
            disabled={disabled || !session}
            onClick={() => ref?.send({ type: 'settings.search' })}
          >
            <GlobeIcon size={14} />
            {t('composer.search')}
          </button>
          <input
            ref={fileInput}
            type="file"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file || !session) return;
              upload.mutate({ sessionId: session.id, file });
            }}
          />
          <div className="composer-actions">
            <button type="button" className="icon-button" disabled={disabled || !session || !signedIn || upload.isPending} title={t('composer.upload')} aria-label={t('composer.upload')} onClick={() => fileInput.current?.click()}>
              {upload.isPending ? <span className="spinner spinner-small" /> : <PaperclipIcon size={18} />}
            </button>
            {asr && (
              <button type="button" className={`icon-button${recording ? ' recording' : ''}`} disabled={disabled} title={t(recording ? 'composer.stopVoice' : 'composer.voice')} aria-label={t(recording ? 'composer.stopVoice' : 'composer.voice')} onClick={() => void toggleRecording()}>
                <MicIcon size={18} />
              </button>
            )}
            {busy && (
              <button type="button" className="button button-secondary button-small" disabled={disabled} aria-disabled={session?.pausing} onClick={() => session?.pausing || ref?.send({ type: 'conversation.pause' })}>
                {session?.pausing ? <span className="spinner spinner-small" /> : <PauseIcon size={14} />}
                {t(session?.pausing ? 'composer.pausing' : 'composer.pause')}
              </button>
            )}
            {(!busy || steering) && (
              <button type="button" className="button button-primary button-small" disabled={disabled || text.trim() === '' || (signedIn && !ref)} onClick={submit}>
                <SendIcon size={14} />
                {t(steering ? 'composer.steer' : researching && session?.redirecting ? 'composer.redirect' : 'composer.send')}
              </button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
