import { formatPageRanges, pagesOf, parseCropRanges } from '@quire/contracts';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useShownSize } from '../../pdf/pageGeometry';
import { PageThumb } from '../../pdf/PageThumb';
import {
  MarginFields,
  PageCardFrame,
  PageGrid,
  RangeField,
  SIDES,
  Segmented,
  fileFields,
  shownPages,
  togglePage,
  useFilePdf,
  type Side,
} from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../editTools.css';

type Margins = Record<Side, number>;

/** PDF sizes are in points: 72 to the inch, and 25.4 mm to the inch. */
const mmToPoints = (mm: number) => (mm * 72) / 25.4;
const pointsToMm = (pt: number) => (pt * 25.4) / 72;
/** The schema's bound on one margin. */
const MAX_MARGIN_MM = 5000;
const THUMB_SIZE = 140;

/** The margins as numbers, or the sides whose field is not a number of millimetres. */
function readMargins(fields: Record<Side, string>): { margins: Margins; bad: Side[] } {
  const margins = {} as Margins;
  const bad: Side[] = [];
  for (const side of SIDES) {
    const value = fields[side].trim() === '' ? NaN : Number(fields[side]);
    if (!Number.isFinite(value) || value < 0 || value > MAX_MARGIN_MM) bad.push(side);
    margins[side] = value;
  }
  return { margins, bad };
}

/** A page preview with what the margins cut shaded around a dashed box of what stays. */
function CropCard({
  doc,
  page,
  margins,
  cropped,
  onClick,
}: {
  doc: PDFDocumentProxy | null;
  page: number;
  margins: Margins;
  cropped: boolean;
  onClick?: () => void;
}) {
  const t = useT();
  const size = useShownSize(doc, page);
  const k = size ? THUMB_SIZE / Math.max(size.width, size.height) : 0;
  const pct = (mm: number, of: number) => `${Math.min(100, (mmToPoints(mm) / of) * 100)}%`;
  return (
    <PageCardFrame page={page} selected={!!onClick && cropped} onClick={onClick}>
      <div className="crop-thumb">
        <PageThumb doc={doc} pageNumber={page} size={THUMB_SIZE} />
        {size && cropped && (
          <div className="crop-frame" style={{ width: Math.round(size.width * k), height: Math.round(size.height * k) }}>
            <div
              className="crop-keep"
              data-testid="crop-keep"
              style={{
                top: pct(margins.top, size.height),
                right: pct(margins.right, size.width),
                bottom: pct(margins.bottom, size.height),
                left: pct(margins.left, size.width),
              }}
            />
          </div>
        )}
      </div>
      <span className="page-number">{t('pages.page', { page })}</span>
    </PageCardFrame>
  );
}

/** Crop margins in millimetres, on all pages or a range, previewed on the thumbnails. */
export function CropPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const [fields, setFields] = useState<Record<Side, string>>({ top: '10', right: '10', bottom: '10', left: '10' });
  const [scope, setScope] = useState<'all' | 'custom'>('all');
  const [text, setText] = useState('');
  const pdf = useFilePdf(file);

  const { margins, bad } = readMargins(fields);
  const parsed = text.trim() ? parseCropRanges(text, pageCount) : null;
  const picked = parsed?.ok ? pagesOf(parsed.ranges) : [];
  const rangeError = parsed && !parsed.ok ? parsed.message : undefined;
  const targets = scope === 'all' ? shownPages(pageCount) : picked;
  const cropped = (page: number) => scope === 'all' || picked.includes(page);

  // The first page cropped shows whether the margins leave any of it; the server checks every page.
  const first = useShownSize(pdf.doc, targets[0] ?? 1);
  const noArea =
    first &&
    !bad.length &&
    (mmToPoints(margins.left + margins.right) >= first.width || mmToPoints(margins.top + margins.bottom) >= first.height)
      ? t('crop.noArea', { page: targets[0] ?? 1, width: pointsToMm(first.width).toFixed(1), height: pointsToMm(first.height).toFixed(1) })
      : undefined;

  let request: ToolRequest = { ok: false };
  const pages = scope === 'all' ? 'all' : picked.length ? text.trim() : null;
  if (file && pages && !bad.length && !noArea) request = { ok: true, body: { ...fileFields(file), margins, pages } };

  const options = (
    <>
      <span className="field-label">{t('crop.margins')}</span>
      <MarginFields
        values={fields}
        onChange={(side, value) => setFields({ ...fields, [side]: value })}
        invalid={bad}
        input={{ inputMode: 'decimal', step: 'any', max: MAX_MARGIN_MM }}
      />
      {bad.length > 0 && (
        <span className="field-error" role="alert" data-testid="margin-error">
          {t('crop.marginError', { max: MAX_MARGIN_MM })}
        </span>
      )}
      {noArea && (
        <span className="field-error" role="alert" data-testid="no-area-error">
          {noArea}
        </span>
      )}
      <span className="field-label">{t('crop.pages')}</span>
      <Segmented
        label={t('crop.pages')}
        value={scope}
        options={[
          ['all', t('crop.allPages')],
          ['custom', t('crop.custom')],
        ]}
        testId="pages"
        onChange={setScope}
      />
      {scope === 'custom' && (
        <>
          <RangeField label={t('crop.rangeLabel')} value={text} onChange={setText} error={rangeError} disabled={!file} />
          <p className="panel-note">{t('pages.clickHint')}</p>
        </>
      )}
      <p className="panel-note">{t('crop.previewHint')}</p>
    </>
  );

  const grid = file && (
    <PageGrid count={pageCount} failed={pdf.failed}>
      {shownPages(pageCount).map((page) => (
        <CropCard
          key={page}
          doc={pdf.doc}
          page={page}
          margins={bad.length ? { top: 0, right: 0, bottom: 0, left: 0 } : margins}
          cropped={cropped(page)}
          {...(scope === 'custom' && { onClick: () => setText(formatPageRanges(togglePage(picked, page))) })}
        />
      ))}
    </PageGrid>
  );

  return layout({ pages: grid, options, request });
}
