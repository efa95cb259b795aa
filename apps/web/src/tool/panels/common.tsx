// Pieces the option panels share: request fields, page picking, the range field, the preview grid.
import { pageRangeMessages, parsePageRanges, pagesOf, type PageRange } from '@quire/contracts';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useId, type ReactNode } from 'react';
import { fileDownloadUrl } from '../../api/files';
import type { ReadyFile } from '../../files/fileList';
import { type Translate, useT } from '../../i18n/I18nProvider';
import { MAX_THUMBNAILS, PageThumb } from '../../pdf/PageThumb';
import { usePdfDocument } from '../../pdf/pdfDocument';

/** The file fields of a single-file tool call. */
export function fileFields(file: ReadyFile): { file_id: string; passwd?: string } {
  return { file_id: file.info.file_id, ...(file.password && { passwd: file.password }) };
}

/** `pages` with `page` added or taken away. */
export function togglePage(pages: readonly number[], page: number): number[] {
  return pages.includes(page) ? pages.filter((p) => p !== page) : [...pages, page];
}

/** The ranges and pages of a range list (none while it is blank), or the message saying what is wrong with it. */
export function readRanges(text: string, pageCount: number): { ranges: PageRange[]; pages: number[]; error?: string } {
  if (!text.trim()) return { ranges: [], pages: [] };
  const result = parsePageRanges(text, pageCount);
  if (!result.ok) return { ranges: [], pages: [], error: result.message };
  return { ranges: result.ranges, pages: pagesOf(result.ranges) };
}

/** A range list's mistake (the contracts' English, shared with the server) in the page's language; any other message as it is. */
export function rangeErrorText(t: Translate, error: string): string {
  switch (error) {
    case pageRangeMessages.format:
      return t('pages.rangeFormat');
    case pageRangeMessages.invalid:
      return t('pages.rangeInvalid');
    case pageRangeMessages.tooMany:
      return t('pages.rangeTooMany');
    default:
      return error;
  }
}

interface RangeFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  placeholder?: string;
  disabled?: boolean;
}

export function RangeField({ label, value, onChange, error, placeholder = '1, 6-159, 59-100', disabled }: RangeFieldProps) {
  const t = useT();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="text"
        inputMode="numeric"
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        data-testid="range-input"
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <span className="field-error" role="alert" data-testid="range-error">
          {rangeErrorText(t, error)}
        </span>
      )}
    </label>
  );
}

/** The open PDF of a file, for its previews. */
export function useFilePdf(file: ReadyFile | undefined) {
  const url = file ? fileDownloadUrl(file.info.file_id) : undefined;
  return usePdfDocument(url, file?.password);
}

interface PageCardProps {
  doc: PDFDocumentProxy | null;
  page: number;
  selected?: boolean;
  rotation?: number;
  /** A small mark in the corner, e.g. the output file the page goes to. */
  badge?: string | undefined;
  onClick?: () => void;
  children?: ReactNode;
  dragProps?: object;
}

export function PageCard({ doc, page, selected, rotation = 0, badge, onClick, children, dragProps }: PageCardProps) {
  const t = useT();
  return (
    <PageCardFrame page={page} selected={!!selected} onClick={onClick} attributes={{ 'data-rotation': rotation, ...dragProps }}>
      <PageThumb doc={doc} pageNumber={page} rotation={rotation} />
      <span className="page-number">{t('pages.page', { page })}</span>
      {badge && <span className="page-badge">{badge}</span>}
      {children}
    </PageCardFrame>
  );
}

/**
 * The card around a page preview. Where the card picks pages, a transparent toggle button over the
 * whole card is pressed while the page is selected; the preview under it stays mounted as picking
 * is switched on and off, so it is not drawn again.
 */
export function PageCardFrame({
  page,
  selected,
  onClick,
  attributes,
  children,
}: {
  page: number;
  selected: boolean;
  onClick?: (() => void) | undefined;
  attributes?: object;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <div
      className={`page-card ${selected ? 'selected' : ''} ${onClick ? 'clickable' : ''}`}
      data-testid="thumb"
      data-page={page}
      data-selected={selected ? 'true' : 'false'}
      {...attributes}
    >
      {children}
      {onClick && (
        <button
          type="button"
          className="page-card-toggle"
          aria-pressed={selected}
          aria-label={t('pages.page', { page })}
          onClick={onClick}
        />
      )}
    </div>
  );
}

/** The preview grid, capped at MAX_THUMBNAILS cards. */
export function PageGrid({ count, failed, children }: { count: number; failed: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <div className="page-area">
      {failed && <p className="panel-note">{t('pages.previewFailed')}</p>}
      <div className="page-grid">{children}</div>
      {count > MAX_THUMBNAILS && <p className="panel-note">{t('pages.capped', { max: MAX_THUMBNAILS, total: count })}</p>}
    </div>
  );
}

/** The first page numbers of a document, as many as the grid shows. */
export function shownPages(pageCount: number): number[] {
  return Array.from({ length: Math.min(pageCount, MAX_THUMBNAILS) }, (_, i) => i + 1);
}

export const SIDES = ['top', 'right', 'bottom', 'left'] as const;
export type Side = (typeof SIDES)[number];

/** Four margin fields, one per side; `invalid` sides are marked. Units and bounds are the caller's. */
export function MarginFields({
  values,
  onChange,
  invalid = [],
  input,
}: {
  values: Record<Side, string>;
  onChange(side: Side, value: string): void;
  invalid?: readonly Side[];
  input: { inputMode: 'decimal' | 'numeric'; step: number | 'any'; max?: number };
}) {
  const t = useT();
  const labels: Record<Side, string> = { top: t('crop.top'), right: t('crop.right'), bottom: t('crop.bottom'), left: t('crop.left') };
  return (
    <div className="margin-grid">
      {SIDES.map((side) => (
        <label key={side} className="field">
          <span className="field-label">{labels[side]}</span>
          <input
            type="number"
            min={0}
            {...input}
            value={values[side]}
            aria-invalid={invalid.includes(side) ? true : undefined}
            data-testid={`margin-${side}`}
            onChange={(e) => onChange(side, e.target.value)}
          />
        </label>
      ))}
    </div>
  );
}

/** One choice of a few, as native radio buttons styled as one segmented control; each radio's test id is `${testId}-${option}`. */
export function Segmented<T extends string | number>({
  label,
  value,
  options,
  testId,
  onChange,
}: {
  /** The group's accessible name; callers show their own visible label. */
  label: string;
  value: T;
  /** Each value with what its segment shows. */
  options: readonly (readonly [NoInfer<T>, ReactNode])[];
  testId: string;
  onChange(value: NoInfer<T>): void;
}) {
  const name = useId();
  return (
    <fieldset className="segmented" aria-label={label}>
      {options.map(([option, shown]) => (
        <label key={option}>
          <input
            type="radio"
            className="radio-cover"
            name={name}
            checked={value === option}
            data-testid={`${testId}-${option}`}
            onChange={() => onChange(option)}
          />
          {shown}
        </label>
      ))}
    </fieldset>
  );
}

/** Compression levels as radio cards, medium recommended. */
export function LevelCards<L extends string>({
  levels,
  labels,
  value,
  onChange,
}: {
  levels: readonly L[];
  labels: Record<L, [title: string, hint: string]>;
  value: L;
  onChange(level: L): void;
}) {
  const t = useT();
  const name = useId();
  return (
    <>
      <span className="field-label" id={`${name}-label`}>
        {t('compress.level')}
      </span>
      <fieldset className="level-cards" aria-labelledby={`${name}-label`}>
        {levels.map((l) => (
          <label key={l} className="level-card">
            <input
              type="radio"
              className="radio-cover"
              name={name}
              checked={value === l}
              data-testid={`level-${l}`}
              onChange={() => onChange(l)}
            />
            <span className="level-title">
              {labels[l][0]}
              {l === 'medium' && <span className="level-badge">{t('compress.recommended')}</span>}
            </span>
            <span className="level-hint">{labels[l][1]}</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}
