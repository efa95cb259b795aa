import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { PageCard, PageGrid, RangeField, Segmented, fileFields, readRanges, shownPages, useFilePdf } from './common';
import { defaultSplitRanges, withNextRange } from './splitRanges';
import type { OptionPanelProps, ToolRequest } from './types';

type SplitMode = 'custom' | 'fixed';

export function SplitPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const [mode, setMode] = useState<SplitMode>('custom');
  const [ranges, setRanges] = useState(() => defaultSplitRanges(pageCount));
  const [every, setEvery] = useState('1');
  const pdf = useFilePdf(file);

  const custom = readRanges(ranges, pageCount);
  const everyN = Number(every);
  const everyValid = Number.isInteger(everyN) && everyN >= 1 && everyN <= pageCount;
  const everyError = file && every.trim() && !everyValid ? t('split.everyInvalid', { max: pageCount }) : undefined;

  let request: ToolRequest = { ok: false };
  if (file && mode === 'custom' && custom.ranges.length > 0)
    request = { ok: true, body: { ...fileFields(file), mode, ranges: ranges.trim() } };
  if (file && mode === 'fixed' && everyValid) request = { ok: true, body: { ...fileFields(file), mode, every: everyN } };

  /** The output file a page goes to, numbered from 1. */
  const outputOf = (page: number): number | undefined => {
    if (mode === 'fixed') return everyValid ? Math.ceil(page / everyN) : undefined;
    const index = custom.ranges.findIndex((r) => r.from <= page && page <= r.to);
    return index >= 0 ? index + 1 : undefined;
  };

  const options = (
    <>
      <Segmented
        label={t('split.mode')}
        value={mode}
        options={[
          ['custom', t('split.custom')],
          ['fixed', t('split.fixed')],
        ]}
        testId="split"
        onChange={setMode}
      />
      {mode === 'custom' ? (
        <>
          <RangeField
            label={t('split.rangesLabel')}
            value={ranges}
            onChange={setRanges}
            error={custom.error}
            placeholder="1-3, 4-6"
            disabled={!file}
          />
          <button
            type="button"
            className="button button-ghost"
            data-testid="add-range"
            disabled={!file}
            onClick={() => setRanges(withNextRange(ranges, custom.ranges.at(-1)?.to ?? 0, pageCount))}
          >
            {t('split.addRange')}
          </button>
          {custom.ranges.length > 0 && <p className="panel-note">{t('split.customSummary', { count: custom.ranges.length })}</p>}
        </>
      ) : (
        <>
          <label className="field">
            <span className="field-label">{t('split.everyLabel')}</span>
            <input
              type="number"
              min={1}
              max={pageCount || undefined}
              value={every}
              disabled={!file}
              data-testid="every-input"
              aria-invalid={everyError ? true : undefined}
              onChange={(e) => setEvery(e.target.value)}
            />
            {everyError && (
              <span className="field-error" role="alert">
                {everyError}
              </span>
            )}
          </label>
          {everyValid && <p className="panel-note">{t('split.fixedSummary', { count: Math.ceil(pageCount / everyN) })}</p>}
        </>
      )}
    </>
  );

  const pages = file && (
    <PageGrid count={pageCount} failed={pdf.failed}>
      {shownPages(pageCount).map((page) => {
        const output = outputOf(page);
        return (
          <PageCard
            key={page}
            doc={pdf.doc}
            page={page}
            selected={output !== undefined}
            badge={output ? t('split.fileBadge', { n: output }) : undefined}
          />
        );
      })}
    </PageGrid>
  );

  return layout({ pages, options, request });
}
