// /app/automated-test: the operator runs the instance's self-check, one check after another, and
// sees which engine works, how long its task waited and ran, and what was verified or why it failed.
import { selfChecks, type SelfCheckId, type SelfCheckResult } from '@quire/contracts';
import { useState } from 'react';
import { runSelfCheck } from '../api/account';
import { useI18n } from '../i18n/I18nProvider';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { OperatorOnly } from './AdminPage';
import './admin.css';

type Row = { state: 'waiting' } | { state: 'running' } | { state: 'done'; result: SelfCheckResult } | { state: 'error'; message: string };

export function SelfCheckPage() {
  const { t } = useI18n();
  useDocumentTitle(t('selfCheck.title'));
  return (
    <OperatorOnly>
      <SelfCheck />
    </OperatorOnly>
  );
}

function SelfCheck() {
  const { t } = useI18n();
  const [rows, setRows] = useState<Partial<Record<SelfCheckId, Row>>>({});
  const [running, setRunning] = useState(false);
  const labels: Record<SelfCheckId, string> = {
    merge: t('selfCheck.merge'),
    'pdf-to-jpg': t('selfCheck.pdfToJpg'),
    compress: t('selfCheck.compress'),
    'pdf-to-word': t('selfCheck.pdfToWord'),
    'office-to-pdf': t('selfCheck.officeToPdf'),
    ocr: t('selfCheck.ocr'),
    'image-compress': t('selfCheck.imageCompress'),
  };

  const runAll = async () => {
    setRunning(true);
    setRows(Object.fromEntries(selfChecks.map((c) => [c.id, { state: 'waiting' }])));
    const set = (id: SelfCheckId, row: Row) => setRows((r) => ({ ...r, [id]: row }));
    for (const { id } of selfChecks) {
      set(id, { state: 'running' });
      try {
        set(id, { state: 'done', result: await runSelfCheck(id) });
      } catch (e) {
        set(id, { state: 'error', message: e instanceof Error ? e.message : String(e) });
      }
    }
    setRunning(false);
  };

  const results = Object.values(rows).flatMap((r) => (r?.state === 'done' ? [r.result] : []));
  const finished = !running && results.length > 0;
  const seconds = (ms: number) => t('selfCheck.seconds', { s: (ms / 1000).toFixed(1) });

  return (
    <div className="admin-page">
      <header className="admin-head">
        <h1>{t('selfCheck.title')}</h1>
        <button
          type="button"
          className="button button-primary"
          disabled={running}
          onClick={() => void runAll()}
          data-testid="self-check-run"
        >
          {running ? t('selfCheck.running') : t('selfCheck.run')}
        </button>
      </header>
      <p className="self-check-intro">{t('selfCheck.intro')}</p>
      {finished && (
        <p className="self-check-summary" role="status" data-testid="self-check-summary">
          {t('selfCheck.summary', { passed: results.filter((r) => r.ok).length, total: selfChecks.length })}
        </p>
      )}
      <table className="admin-table self-check-table" data-testid="self-check">
        <thead>
          <tr>
            <th>{t('selfCheck.check')}</th>
            <th>{t('selfCheck.engine')}</th>
            <th>{t('selfCheck.result')}</th>
            <th className="admin-number">{t('selfCheck.queued')}</th>
            <th className="admin-number">{t('selfCheck.ran')}</th>
            <th>{t('selfCheck.detail')}</th>
          </tr>
        </thead>
        <tbody>
          {selfChecks.map(({ id, engine }) => {
            const row = rows[id];
            const result = row?.state === 'done' ? row.result : undefined;
            const verdict = !row
              ? '—'
              : row.state === 'waiting'
                ? t('selfCheck.waiting')
                : row.state === 'running'
                  ? t('selfCheck.runningOne')
                  : result?.ok
                    ? t('selfCheck.passed')
                    : t('selfCheck.failed');
            const good = result?.ok === true;
            const bad = row?.state === 'error' || result?.ok === false;
            return (
              <tr
                key={id}
                data-testid="self-check-row"
                data-check={id}
                data-state={good ? 'passed' : bad ? 'failed' : (row?.state ?? 'idle')}
              >
                <td className="admin-who">
                  <strong>{labels[id]}</strong>
                </td>
                <td data-label={t('selfCheck.engine')}>{engine}</td>
                <td data-label={t('selfCheck.result')}>
                  <span className={`self-check-verdict${good ? ' passed' : bad ? ' failed' : ''}`}>
                    {row?.state === 'running' && <span className="spinner spinner-small" aria-hidden="true" />}
                    {verdict}
                  </span>
                </td>
                <td data-label={t('selfCheck.queued')} className="admin-number">
                  {result ? seconds(result.queued_ms) : ''}
                </td>
                <td data-label={t('selfCheck.ran')} className="admin-number">
                  {result ? seconds(result.run_ms) : ''}
                </td>
                <td data-label={t('selfCheck.detail')} className="self-check-detail">
                  {result?.detail ?? (row?.state === 'error' ? row.message : '')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
