// The occupation survey: a dialog (a bottom drawer on phones) asking a signed-in account without a
// career what it does, a second after the sign-in or the page's load. Closed, it rests 7 days in
// this browser; answered, the account has a career and it never asks again.
import { OCCUPATION_TEXT_MAX, OCCUPATIONS, type Occupation } from '@quire/contracts';
import { useEffect, useRef, useState } from 'react';
import { collectOccupation } from '../api/ai';
import { useI18n } from '../i18n/I18nProvider';
import { languageChosen } from '../i18n/rememberedLanguage';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';
import { useModal } from '../ui/useModal';
import { rememberSurveyClosed, SUBMIT_DEBOUNCE_MS, SURVEY_DELAY_MS, surveyAnswer, surveyClosedAt, surveyDue } from './occupationSurvey';
import { useSession } from './session';
import './survey.css';

/** Shows the survey when it is due for the account signed in. */
export function OccupationSurvey() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const userId = user?.user_id;
  const career = user?.career;

  useEffect(() => {
    setOpen(false);
    if (!userId || !surveyDue(career, languageChosen(), surveyClosedAt(), Date.now())) return;
    const timer = setTimeout(() => setOpen(surveyDue(career, languageChosen(), surveyClosedAt(), Date.now())), SURVEY_DELAY_MS);
    return () => clearTimeout(timer);
    // Asked again for another account (a new sign-in), not for each new user object.
  }, [userId, career]);

  if (!open) return null;
  return (
    <SurveyDialog
      onClose={() => {
        rememberSurveyClosed(Date.now());
        setOpen(false);
      }}
      onAnswered={() => setOpen(false)}
    />
  );
}

function SurveyDialog({ onClose, onAnswered }: { onClose(): void; onAnswered(): void }) {
  const { t } = useI18n();
  const session = useSession();
  const toast = useToast();
  // The first choice takes the focus: the question is the dialog's point.
  const modal = useModal(onClose, 'input');
  const [choice, setChoice] = useState<Occupation>();
  const [otherText, setOtherText] = useState('');
  const [sending, setSending] = useState(false);
  const lastSubmit = useRef(0);
  const otherInput = useRef<HTMLInputElement>(null);

  const labels: Record<Occupation, string> = {
    Student: t('survey.student'),
    Education: t('survey.education'),
    IT: t('survey.it'),
    Construction: t('survey.construction'),
    Design: t('survey.design'),
    Healthcare: t('survey.healthcare'),
    Manufacturing: t('survey.manufacturing'),
    'Finance/Accounting': t('survey.finance'),
    Legal: t('survey.legal'),
    Government: t('survey.government'),
    Marketing: t('survey.marketing'),
    RealEstate: t('survey.realEstate'),
    Other: t('survey.other'),
  };
  const answer = surveyAnswer(choice, otherText);
  const atLimit = choice === 'Other' && otherText.length >= OCCUPATION_TEXT_MAX;

  const choose = (next: Occupation) => {
    setChoice(next);
    // Other's text field appears below the choices: the focus follows, for typing at once.
    if (next === 'Other') setTimeout(() => otherInput.current?.focus());
  };

  const submit = async () => {
    const now = Date.now();
    // A second press within 500 ms, or while the answer is on its way, is the same answer.
    if (!answer || sending || now - lastSubmit.current < SUBMIT_DEBOUNCE_MS) return;
    lastSubmit.current = now;
    setSending(true);
    try {
      const saved = await collectOccupation(answer);
      if (session.user) session.signedIn({ ...session.user, career: saved.career });
      toast(t('survey.occupationSaved'), { kind: 'success' });
      onAnswered();
    } catch {
      toast(t('survey.submissionFailedTip'));
      setSending(false);
    }
  };

  return (
    <dialog {...modal} className="survey-dialog" aria-labelledby="survey-title" aria-describedby="survey-lead" data-testid="survey">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="survey-head">
          <h2 id="survey-title">{t('survey.title')}</h2>
          <button type="button" className="icon-button survey-close" aria-label={t('account.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <p id="survey-lead" className="survey-lead">
          {t('survey.lead')}
        </p>
        <div className="survey-choices" role="radiogroup" aria-labelledby="survey-title">
          {OCCUPATIONS.map((occupation) => (
            <label key={occupation} className={`survey-choice${choice === occupation ? ' checked' : ''}`}>
              <input
                type="radio"
                name="occupation"
                value={occupation}
                checked={choice === occupation}
                onChange={() => choose(occupation)}
              />
              <span>{labels[occupation]}</span>
            </label>
          ))}
        </div>
        {choice === 'Other' && (
          <div className="survey-other">
            <label htmlFor="survey-other-text">{t('survey.otherLabel')}</label>
            <div className="survey-other-field">
              <input
                ref={otherInput}
                id="survey-other-text"
                type="text"
                value={otherText}
                maxLength={OCCUPATION_TEXT_MAX}
                placeholder={t('survey.otherPlaceholder')}
                aria-describedby="survey-other-count"
                aria-invalid={atLimit}
                onChange={(e) => setOtherText(e.target.value)}
                data-testid="survey-other-text"
              />
              <span id="survey-other-count" className="survey-count">
                {t('survey.count', { length: otherText.length, max: OCCUPATION_TEXT_MAX })}
              </span>
            </div>
            {atLimit && (
              <p className="survey-limit" role="alert" data-testid="survey-limit">
                {t('survey.limitTip', { max: OCCUPATION_TEXT_MAX })}
              </p>
            )}
          </div>
        )}
        <div className="survey-foot">
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('survey.notNow')}
          </button>
          <button type="submit" className="button button-primary" disabled={!answer || sending} data-testid="survey-submit">
            {t('survey.submit')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
