import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { asrAvailable, recognise } from '../api/research.ts';
import { fullPath } from '../app/guard.ts';
import { Icon } from '../components/Icon.tsx';
import { clampInputHeight, INPUT_MIN_HEIGHT } from '../research/editReport.ts';
import { LOGIN_REQUIRED, researchStore, useResearch, type ResearchSession } from '../research/store.ts';

let asrProbe: Promise<boolean> | null = null;
const INPUT_HEIGHT_KEY = 'research_input_height';

/** The text input panel: mode, search, attachments, voice, send and pause. */
export function Composer({ session, signedIn }: { session: ResearchSession | null; signedIn: boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { error } = useResearch();
  const [text, setText] = useState('');
  const [height, setHeight] = useState(() => clampInputHeight(Number(localStorage.getItem(INPUT_HEIGHT_KEY)) || INPUT_MIN_HEIGHT + 30));
  const [needsLogin, setNeedsLogin] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string[]>([]);
  const [asr, setAsr] = useState(false);
  const [recording, setRecording] = useState<MediaRecorder | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!signedIn) return;
    asrProbe ??= asrAvailable();
    let live = true;
    void asrProbe.then((available) => live && setAsr(available));
    return () => {
      live = false;
    };
  }, [signedIn]);

  const busy = session?.conversation.busy ?? false;
  const disabled = session?.readOnly === true || session?.restoring === true;

  const submit = () => {
    if (text.trim() === '') return;
    if (!signedIn) {
      setNeedsLogin(true);
      return;
    }
    if (researchStore.send(text)) setText('');
  };

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
          .then((heard) => setText((current) => `${current}${heard}`))
          .catch((failure: unknown) => console.warn('voice recognition failed', failure));
      };
      recorder.start();
      setRecording(recorder);
    } catch (failure) {
      console.warn('microphone unavailable', failure);
    }
  };

  return (
    <div className="composer-panel" style={{ height }}>
      <div className="resize-handle" role="separator" aria-orientation="horizontal" aria-label={t('composer.resize')} onPointerDown={startDrag} />
      {(error || needsLogin) && (
        <div className="composer-alert" role="alert">
          <Icon name="alert" size={14} />
          {needsLogin ? (
            <span>
              {LOGIN_REQUIRED}，
              <Link to={`/login?redirect=${encodeURIComponent(fullPath(location))}`}>{t('user.signIn')}</Link>
            </span>
          ) : (
            <span>{error}</span>
          )}
          <button type="button" className="icon-button tiny" aria-label={t('user.close')} onClick={() => (needsLogin ? setNeedsLogin(false) : researchStore.clearError())}>
            <Icon name="close" size={12} />
          </button>
        </div>
      )}
      <div className={`composer-box${disabled ? ' disabled' : ''}`}>
        <textarea
          value={text}
          disabled={disabled}
          placeholder={disabled && session?.readOnly ? t('composer.readOnly') : t(session?.mode === 0 ? 'composer.placeholderChat' : 'composer.placeholderResearch')}
          aria-label={t('composer.label')}
          onChange={(event) => setText(event.target.value)}
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
                <Icon name="paperclip" size={12} />
                {name}
              </span>
            ))}
          </div>
        )}
        <div className="composer-toolbar">
          <div className="segmented" role="radiogroup" aria-label={t('composer.mode')} data-guide="input-mode">
            {([1, 0] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                role="radio"
                aria-checked={(session?.mode ?? 1) === mode}
                className={(session?.mode ?? 1) === mode ? 'active' : undefined}
                disabled={disabled || !session || busy}
                onClick={() => void researchStore.setMode(mode)}
                title={t(`composer.modeHint.${mode}`)}
              >
                <Icon name={mode === 1 ? 'cognition' : 'chat'} size={14} />
                {t(`composer.modes.${mode}`)}
              </button>
            ))}
          </div>
          <button
            type="button"
            className={`toggle${session?.searchEnabled ?? true ? ' on' : ''}`}
            aria-pressed={session?.searchEnabled ?? true}
            disabled={disabled || !session}
            onClick={() => void researchStore.toggleSearch()}
          >
            <Icon name="globe" size={14} />
            {t('composer.search')}
          </button>
          <input
            ref={fileInput}
            type="file"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              setUploading(file.name);
              void researchStore.upload(file).then((ok) => {
                setUploading(null);
                if (ok) setUploaded((names) => [...names, file.name]);
              });
            }}
          />
          <div className="composer-actions">
            <button type="button" className="icon-button" disabled={disabled || !session || !signedIn || uploading !== null} title={t('composer.upload')} aria-label={t('composer.upload')} onClick={() => fileInput.current?.click()}>
              {uploading ? <span className="spinner spinner-small" /> : <Icon name="paperclip" size={18} />}
            </button>
            {asr && (
              <button type="button" className={`icon-button${recording ? ' recording' : ''}`} disabled={disabled} title={t(recording ? 'composer.stopVoice' : 'composer.voice')} aria-label={t(recording ? 'composer.stopVoice' : 'composer.voice')} onClick={() => void toggleRecording()}>
                <Icon name="mic" size={18} />
              </button>
            )}
            {busy ? (
              <button type="button" className="button button-secondary button-small" disabled={disabled} onClick={() => void researchStore.pause()}>
                <Icon name="pause" size={14} />
                {t('composer.pause')}
              </button>
            ) : (
              <button type="button" className="button button-primary button-small" disabled={disabled || text.trim() === ''} onClick={submit}>
                <Icon name="send" size={14} />
                {t('composer.send')}
              </button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
