import { useTranslation } from 'react-i18next';
import { REVIEW_ASPECTS, type DeckSlideDto } from '@scriptorium/domain/protocol/deckReview';
import { CircleAlertIcon, ImageIcon, MessageSquareIcon, PenLineIcon } from '../ui/icons.ts';
import { excerpt, scoreTone } from './review.ts';

/** One slide: what it holds, and its review once it has landed. */
export function SlideCard({ slide }: { slide: DeckSlideDto }) {
  const { t } = useTranslation('ppt');
  const { shown, hidden } = excerpt(slide.paragraphs);
  return (
    <article className={`ppt-slide ppt-slide-status-${slide.status}`} data-testid="ppt-slide" data-status={slide.status} aria-label={t('slide.label', { n: slide.n })}>
      <header className="ppt-slide-head">
        <span className="ppt-slide-n">{t('slide.label', { n: slide.n })}</span>
        <h3 className={slide.title ? undefined : 'muted'}>{slide.title ?? t('slide.untitled')}</h3>
        {slide.review && <span className={`ppt-score-pill tone-${scoreTone(slide.review.score)}`}>{t('slide.score', { score: slide.review.score })}</span>}
      </header>
      <div className="ppt-slide-body">
        <section className="ppt-slide-content">
          {shown.length > 0 ? (
            <ul className="ppt-slide-text">
              {shown.map((paragraph, index) => (
                <li key={index}>{paragraph}</li>
              ))}
              {hidden > 0 && <li className="muted">{t('slide.more', { count: hidden })}</li>}
            </ul>
          ) : (
            <p className="muted">{t('slide.noText')}</p>
          )}
          <p className="ppt-slide-facts">
            <span>
              <ImageIcon size={13} />
              {t('slide.images', { count: slide.images })}
            </span>
            <span title={slide.notes || undefined}>
              <MessageSquareIcon size={13} />
              {slide.notes ? t('slide.notesText', { notes: slide.notes }) : t('slide.noNotes')}
            </span>
          </p>
        </section>
        <section className="ppt-slide-review" aria-live="polite">
          {slide.status === 'pending' && (
            <p className="muted ppt-slide-waiting">
              <span className="spinner spinner-small" />
              {t('slide.pending')}
            </p>
          )}
          {slide.status === 'failed' && (
            <p className="ppt-slide-failure" role="status">
              <CircleAlertIcon size={14} />
              <span>
                <strong>{t('slide.failed')}</strong> {slide.failure}
              </span>
            </p>
          )}
          {slide.review && (
            <>
              <dl className="ppt-aspects">
                {REVIEW_ASPECTS.map((aspect) => {
                  const { rating, points } = slide.review![aspect];
                  return (
                    <div key={aspect} className="ppt-aspect">
                      <dt>
                        {t(`aspects.${aspect}`)}
                        <span className={`ppt-rating tone-${rating}`}>{t(`ratings.${rating}`)}</span>
                      </dt>
                      <dd>
                        {points.length === 0 ? (
                          <span className="muted">{t('slide.noPoints')}</span>
                        ) : (
                          <ul>
                            {points.map((point, index) => (
                              <li key={index}>{point}</li>
                            ))}
                          </ul>
                        )}
                      </dd>
                    </div>
                  );
                })}
              </dl>
              <div className="ppt-rewrite">
                <h4>
                  <PenLineIcon size={13} />
                  {t('slide.rewrite')}
                </h4>
                {slide.review.rewrite ? <pre>{slide.review.rewrite}</pre> : <p className="muted">{t('slide.noRewrite')}</p>}
              </div>
            </>
          )}
        </section>
      </div>
    </article>
  );
}
