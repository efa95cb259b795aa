import { formatPageRanges } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { PageCard, PageGrid, RangeField, Segmented, fileFields, readRanges, shownPages, togglePage, useFilePdf } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

const angles = [90, 180, 270] as const;
type Angle = (typeof angles)[number];

/** Rotate all pages or a range by 90, 180 or 270 degrees clockwise, previewed on the pages. */
export function RotatePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const [angle, setAngle] = useState<Angle>(90);
  const [scope, setScope] = useState<'all' | 'custom'>('all');
  const [text, setText] = useState('');
  const pdf = useFilePdf(file);

  const picked = readRanges(text, pageCount);
  const turned = (page: number) => scope === 'all' || picked.pages.includes(page);

  let request: ToolRequest = { ok: false };
  if (file && scope === 'all') request = { ok: true, body: { ...fileFields(file), angle, pages: 'all' } };
  if (file && scope === 'custom' && picked.pages.length > 0)
    request = { ok: true, body: { ...fileFields(file), angle, pages: text.trim() } };

  const options = (
    <>
      <span className="field-label">{t('rotate.angle')}</span>
      <Segmented
        label={t('rotate.angle')}
        value={angle}
        options={angles.map((a) => [
          a,
          <>
            {a === 270 ? <Icon name="rotateLeft" size={16} /> : <Icon name="rotateRight" size={16} />} {a}°
          </>,
        ])}
        testId="angle"
        onChange={setAngle}
      />
      <span className="field-label">{t('rotate.pages')}</span>
      <Segmented
        label={t('rotate.pages')}
        value={scope}
        options={[
          ['all', t('rotate.allPages')],
          ['custom', t('rotate.custom')],
        ]}
        testId="pages"
        onChange={setScope}
      />
      {scope === 'custom' && (
        <>
          <RangeField label={t('rotate.rangeLabel')} value={text} onChange={setText} error={picked.error} disabled={!file} />
          <p className="panel-note">{t('pages.clickHint')}</p>
        </>
      )}
    </>
  );

  const grid = file && (
    <PageGrid count={pageCount} failed={pdf.failed}>
      {shownPages(pageCount).map((page) => (
        <PageCard
          key={page}
          doc={pdf.doc}
          page={page}
          rotation={turned(page) ? angle : 0}
          selected={scope === 'custom' && turned(page)}
          {...(scope === 'custom' && { onClick: () => setText(formatPageRanges(togglePage(picked.pages, page))) })}
        />
      ))}
    </PageGrid>
  );

  return layout({ pages: grid, options, request });
}
