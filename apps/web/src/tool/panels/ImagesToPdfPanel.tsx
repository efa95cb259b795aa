import {
  defaultImageLayout,
  isImageFileName,
  placeImage,
  type ImageLayout,
  type PageMargin,
  type PageOrientation,
  type PageSize,
} from '@quire/contracts';
import { useState } from 'react';
import { fileDownloadUrl } from '../../api/files';
import type { ReadyFile } from '../../files/fileList';
import { useT } from '../../i18n/I18nProvider';
import { Segmented } from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../convert.css';

export interface ChoiceProps<T extends string> {
  label: string;
  value: T;
  /** Each value with its label. */
  options: readonly [T, string][];
  testId: string;
  onChange(value: T): void;
}

export function Choice<T extends string>({ label, value, options, testId, onChange }: ChoiceProps<T>) {
  return (
    <>
      <span className="field-label">{label}</span>
      <Segmented label={label} value={value} options={options} testId={testId} onChange={onChange} />
    </>
  );
}

/** The first image on its page, laid out as the server will (its pixels taken at 72 dpi). */
function PagePreview({ file, layout }: { file: ReadyFile; layout: ImageLayout }) {
  const t = useT();
  // The size the browser shows, once loaded, is the one turned upright as its EXIF says; the upload's until then.
  const [shownSize, setShownSize] = useState<[number, number] | null>(null);
  const [w, h] = shownSize ?? [file.info.page_w || 100, file.info.page_h || 100];
  const { page, box } = placeImage(w, h, layout);
  const scale = 180 / Math.max(page[0], page[1]);
  // Browsers show these formats themselves; a TIFF is drawn as a plain box.
  const shown = isImageFileName(file.info.file_name) && !/\.tiff?$/i.test(file.info.file_name);
  return (
    <figure className="image-page-preview" aria-label={t('images.preview')} data-testid="page-preview">
      <div className="image-page" style={{ width: page[0] * scale, height: page[1] * scale }}>
        <div
          className="image-box"
          style={{ left: box.x * scale, bottom: box.y * scale, width: box.width * scale, height: box.height * scale }}
        >
          {shown && (
            <img
              src={fileDownloadUrl(file.info.file_id)}
              alt=""
              onLoad={(e) => setShownSize([e.currentTarget.naturalWidth, e.currentTarget.naturalHeight])}
            />
          )}
        </div>
      </div>
      <figcaption>{t('images.preview')}</figcaption>
    </figure>
  );
}

/** Images to PDF: the list's order is the pages' order (drag to change it); page size, orientation, margin. */
export function ImagesToPdfPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [options, setOptions] = useState<ImageLayout>(defaultImageLayout);
  const set = (change: Partial<ImageLayout>) => setOptions((o) => ({ ...o, ...change }));
  const request: ToolRequest =
    files.length > 0 ? { ok: true, body: { file_ids: files.map((f) => f.info.file_id), ...options } } : { ok: false };
  const first = files[0];
  const sizes: [PageSize, string][] = [
    ['a4', t('images.a4')],
    ['letter', t('images.letter')],
    ['fit', t('images.fit')],
  ];
  const orientations: [PageOrientation, string][] = [
    ['auto', t('images.auto')],
    ['portrait', t('images.portrait')],
    ['landscape', t('images.landscape')],
  ];
  const margins: [PageMargin, string][] = [
    ['none', t('images.none')],
    ['small', t('images.small')],
    ['large', t('images.large')],
  ];
  return layout({
    options: (
      <>
        <p className="panel-note">{t('images.help')}</p>
        <Choice
          label={t('images.pageSize')}
          value={options.page_size}
          options={sizes}
          testId="page-size"
          onChange={(page_size) => set({ page_size })}
        />
        {options.page_size !== 'fit' && (
          <Choice
            label={t('images.orientation')}
            value={options.orientation}
            options={orientations}
            testId="orientation"
            onChange={(orientation) => set({ orientation })}
          />
        )}
        <Choice
          label={t('images.margin')}
          value={options.margin}
          options={margins}
          testId="margin"
          onChange={(margin) => set({ margin })}
        />
        {first && <PagePreview key={first.uid} file={first} layout={options} />}
        {files.length > 0 && <p className="panel-summary">{t('images.summary', { count: files.length })}</p>}
      </>
    ),
    request,
  });
}
