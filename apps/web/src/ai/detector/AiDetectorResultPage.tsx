// /app/ai-detector-result: the detector's scores for the whole text and for each sentence, read
// from the navigation that brought the user here (a reload keeps it; another visit has none and
// goes back to the detector). The page says which detector scored it: the language model the
// operator set for it, or the statistical one (also where that model cannot score text).
import type { DetectResult } from '@quire/contracts';
import { Navigate, useLocation } from 'react-router';
import { useI18n } from '../../i18n/I18nProvider';
import { LocaleLink } from '../../ui/LocaleLink';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import '../ai.css';
import { likelihoodOf } from './likelihood';

export const DETECTOR_PATH = '/app/ai-detector';
export const DETECTOR_RESULT_PATH = '/app/ai-detector-result';

export interface DetectorResultState {
  result: DetectResult;
  /** The checked file's name; empty for pasted text. */
  source: string;
}

export function AiDetectorResultPage() {
  const { t, localePath } = useI18n();
  useDocumentTitle(t('aiDetector.resultTitle'));
  const state = useLocation().state as DetectorResultState | null;
  if (!state?.result) return <Navigate to={localePath(DETECTOR_PATH)} replace />;
  return <DetectorResult {...state} />;
}

function DetectorResult({ result, source }: DetectorResultState) {
  const { t, locale } = useI18n();
  const percent = Math.round(result.score * 100);
  const verdict = likelihoodOf(result.score);
  const number = (n: number) => n.toLocaleString(locale);
  const verdictText = { ai: t('aiDetector.verdictAi'), mixed: t('aiDetector.verdictMixed'), human: t('aiDetector.verdictHuman') };
  return (
    <div className="page ai-page">
      <header className="page-header ai-result-header">
        <div>
          <h1>{t('aiDetector.resultTitle')}</h1>
          {source && <p data-testid="detector-source">{source}</p>}
        </div>
        <LocaleLink to={DETECTOR_PATH} className="button button-outline" data-testid="detector-again">
          {t('aiDetector.again')}
        </LocaleLink>
      </header>
      <section className={`card ai-score ai-score-${verdict}`} data-testid="detector-score" data-verdict={verdict}>
        <div className="ai-gauge" role="img" aria-label={t('aiDetector.percent', { percent })}>
          <div className="ai-gauge-fill" style={{ width: `${percent}%` }} />
        </div>
        <p className="ai-score-line">
          <strong data-testid="detector-percent">{t('aiDetector.percent', { percent })}</strong>
          <span>{verdictText[verdict]}</span>
        </p>
        <p className="ai-hint" data-testid="detector-method" data-method={result.method}>
          {result.method === 'model' ? t('aiDetector.model') : t('aiDetector.statistical')}
        </p>
        {result.fallback && (
          <p className="ai-hint" data-testid="detector-fallback">
            {t('aiDetector.modelFallback')}
          </p>
        )}
        <p className="ai-quota" data-testid="detector-charged">
          {t('aiDetector.charged', { count: number(result.per_chars), left: number(result.remain), total: number(result.total) })}
        </p>
      </section>
      <section className="card ai-sentences" aria-labelledby="ai-sentences-title">
        <h2 id="ai-sentences-title">{t('aiDetector.bySentence')}</h2>
        <ul className="ai-legend">
          <li>
            <span className="ai-swatch ai-level-ai" aria-hidden="true" />
            {verdictText.ai}
          </li>
          <li>
            <span className="ai-swatch ai-level-mixed" aria-hidden="true" />
            {verdictText.mixed}
          </li>
          <li>
            <span className="ai-swatch ai-level-human" aria-hidden="true" />
            {verdictText.human}
          </li>
        </ul>
        <p className="ai-marked-text" data-testid="detector-sentences">
          {result.sentences.map((s) => {
            const level = likelihoodOf(s.score);
            const label = t('aiDetector.percent', { percent: Math.round(s.score * 100) });
            return (
              <span key={s.start}>
                <mark className={`ai-level-${level}`} title={label} data-testid="detector-sentence" data-level={level}>
                  {s.sentence}
                  <span className="visually-hidden"> ({label})</span>
                </mark>{' '}
              </span>
            );
          })}
        </p>
      </section>
    </div>
  );
}
