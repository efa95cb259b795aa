import { formatPageRanges } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { PageCard, PageGrid, RangeField, fileFields, readRanges, shownPages, togglePage, useFilePdf } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

/** Extract or delete pages: a range field, filled in by clicking previews too. */
function PagePickPanel({ files, layout, purpose }: OptionPanelProps & { purpose: 'extract' | 'delete' }) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const [text, setText] = useState('');
  const pdf = useFilePdf(file);

  const picked = readRanges(text, pageCount);
  const error =
    picked.error ?? (purpose === 'delete' && picked.pages.length === pageCount && pageCount > 0 ? t('delete.allPages') : undefined);
  const pages = picked.error ? [] : picked.pages;

  let request: ToolRequest = { ok: false };
  if (file && !error && pages.length > 0) {
    const body = { ...fileFields(file), pages: text.trim() };
    request = { ok: true, body };
  }

  const options = (
    <>
      <RangeField
        label={purpose === 'extract' ? t('extract.label') : t('delete.label')}
        value={text}
        onChange={setText}
        error={error}
        disabled={!file}
      />
      <p className="panel-note">{pages.length > 0 ? t('pages.selected', { count: pages.length }) : t('pages.clickHint')}</p>
    </>
  );

  const grid = file && (
    <PageGrid count={pageCount} failed={pdf.failed}>
      {shownPages(pageCount).map((page) => (
        <PageCard
          key={page}
          doc={pdf.doc}
          page={page}
          selected={pages.includes(page)}
          onClick={() => setText(formatPageRanges(togglePage(pages, page)))}
        >
          {purpose === 'delete' && pages.includes(page) && <span className="page-strike" aria-hidden="true" />}
        </PageCard>
      ))}
    </PageGrid>
  );

  return layout({ pages: grid, options, request });
}

export const ExtractPanel = (props: OptionPanelProps) => <PagePickPanel {...props} purpose="extract" />;
export const DeletePanel = (props: OptionPanelProps) => <PagePickPanel {...props} purpose="delete" />;
