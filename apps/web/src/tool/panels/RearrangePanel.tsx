import { useState } from 'react';
import { moveItem } from '../../files/fileList';
import { useT } from '../../i18n/I18nProvider';
import { MAX_THUMBNAILS } from '../../pdf/PageThumb';
import { Icon } from '../../ui/Icon';
import { useDragReorder } from '../../ui/useDragReorder';
import { PageCard, PageGrid, fileFields, useFilePdf } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

const inOrder = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** Drag previews into a new order; pages taken out are left out of the result. */
export function RearrangePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const [order, setOrder] = useState(() => inOrder(pageCount));
  const pdf = useFilePdf(file);
  const reorder = useDragReorder((from, to) => setOrder((o) => moveItem(o, from, to)), Math.min(order.length, MAX_THUMBNAILS));

  const request: ToolRequest = file && order.length > 0 ? { ok: true, body: { ...fileFields(file), order } } : { ok: false };

  const options = (
    <>
      <p className="panel-note">{t('rearrange.help')}</p>
      <div className="button-row">
        <button
          type="button"
          className="button button-ghost"
          data-testid="reverse-pages"
          disabled={!file}
          onClick={() => setOrder((o) => [...o].reverse())}
        >
          <Icon name="reverse" size={18} /> {t('rearrange.reverse')}
        </button>
        <button
          type="button"
          className="button button-ghost"
          data-testid="reset-order"
          disabled={!file}
          onClick={() => setOrder(inOrder(pageCount))}
        >
          {t('rearrange.reset')}
        </button>
      </div>
      {order.length < pageCount && <p className="panel-note">{t('rearrange.removed', { count: pageCount - order.length })}</p>}
      <p className="visually-hidden" aria-live="polite" data-testid="reorder-status">
        {reorder.status}
      </p>
    </>
  );

  const grid = file && (
    <PageGrid count={order.length} failed={pdf.failed}>
      {order.slice(0, MAX_THUMBNAILS).map((page, index) => (
        <PageCard key={page} doc={pdf.doc} page={page} dragProps={reorder.itemProps(index)}>
          <button
            type="button"
            className="page-remove"
            aria-label={t('rearrange.remove', { page })}
            data-testid="remove-page"
            onClick={() => setOrder((o) => o.filter((p) => p !== page))}
          >
            <Icon name="close" size={14} />
          </button>
        </PageCard>
      ))}
    </PageGrid>
  );

  return layout({ pages: grid, options, request });
}
