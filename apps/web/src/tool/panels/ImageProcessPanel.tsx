import {
  croppedSize,
  defaultIcoSize,
  defaultImageOutputFormat,
  icoSizes,
  IMAGE_MARGIN_MAX,
  IMAGE_RESIZE_PERCENT,
  imageOutputFormats,
  resizedSize,
  type IcoSize,
  type ImageAction,
  type ImageMargins,
  type ImageOutputFormat,
  type ToolParams,
} from '@quire/contracts';
import { useState, type ReactNode } from 'react';
import { fileDownloadUrl } from '../../api/files';
import type { ReadyFile } from '../../files/fileList';
import { useT } from '../../i18n/I18nProvider';
import { useSizes } from '../../ui/useSizes';
import { fileFields, LevelCards, MarginFields, SIDES, type Side } from './common';
import { Choice } from './ImagesToPdfPanel';
import type { OptionPanelProps, ToolRequest } from './types';
import '../editTools.css';
import '../imageTools.css';
import '../sizeAndSecurity.css';

/** Each image of the list is its own task with the same options, all downloadable together. */
const requestFor = (files: ReadyFile[], action: ImageAction | null): ToolRequest =>
  files.length > 0 && action
    ? { ok: true, body: files.map((f) => ({ ...fileFields(f), ...action }) as ToolParams<'images_process'>) }
    : { ok: false };

/** Browsers show these themselves; a TIFF gets a plain box of its size. */
const browserShows = (name: string) => !/\.tiff?$/i.test(name);

/**
 * The first image, at most `box` pixels on its longer side, with `overlay` drawn over it. Its size
 * as seen (turned upright by EXIF, as the server turns it) is reported once the browser has it.
 */
function ImagePreview({
  file,
  onSize,
  overlay,
  rotation = 0,
}: {
  file: ReadyFile;
  onSize?(size: [number, number]): void;
  overlay?: ReactNode;
  rotation?: number;
}) {
  const t = useT();
  const [size, setSize] = useState<[number, number]>([file.info.page_w || 100, file.info.page_h || 100]);
  const k = 200 / Math.max(size[0], size[1]);
  const [w, h] = [size[0] * k, size[1] * k];
  // The box takes the turned image's room; the image turns about its centre inside it.
  const turned = rotation % 180 !== 0;
  return (
    <figure className="image-tool-preview" aria-label={t('imageTools.preview')} data-testid="image-preview">
      <div className="image-tool-box" style={{ width: turned ? h : w, height: turned ? w : h }}>
        <div className="image-tool-frame" style={{ width: w, height: h, transform: `translate(-50%, -50%) rotate(${rotation}deg)` }}>
          {browserShows(file.info.file_name) && (
            <img
              src={fileDownloadUrl(file.info.file_id)}
              alt=""
              onLoad={(e) => {
                const shown: [number, number] = [e.currentTarget.naturalWidth, e.currentTarget.naturalHeight];
                setSize(shown);
                onSize?.(shown);
              }}
            />
          )}
          {overlay}
        </div>
      </div>
      <figcaption>{t('imageTools.preview')}</figcaption>
    </figure>
  );
}

/** The first image's size as seen: the header's until the preview has loaded. */
function useFirstSize(files: ReadyFile[]): [[number, number] | null, (size: [number, number]) => void] {
  const first = files[0];
  const [loaded, setLoaded] = useState<{ id: string; size: [number, number] } | null>(null);
  const size = first
    ? loaded?.id === first.info.file_id
      ? loaded.size
      : first.info.page_w > 0
        ? ([first.info.page_w, first.info.page_h] as [number, number])
        : null
    : null;
  return [size, (s) => first && setLoaded({ id: first.info.file_id, size: s })];
}

const Summary = ({ files }: { files: ReadyFile[] }) => {
  const t = useT();
  return files.length > 0 ? <p className="panel-summary">{t('images.summary', { count: files.length })}</p> : null;
};

type Level = Extract<ImageAction, { action: 'compress' }>['level'];
const levels: readonly Level[] = ['high', 'medium', 'low'];

/** Three levels, High, Medium and Low; each image keeps its format and never grows. */
export function CompressImagePanel({ files, layout }: OptionPanelProps) {
  const sizes = useSizes();
  const t = useT();
  const [level, setLevel] = useState<Level>('medium');
  const total = files.reduce((sum, f) => sum + f.info.file_size, 0);
  const labels: Record<Level, [string, string]> = {
    high: [t('compress.high'), t('imageTools.highHint')],
    medium: [t('compress.medium'), t('imageTools.mediumHint')],
    low: [t('compress.low'), t('imageTools.lowHint')],
  };
  return layout({
    options: (
      <>
        <LevelCards levels={levels} labels={labels} value={level} onChange={setLevel} />
        <p className="panel-note">{t('imageTools.keepsFormat')}</p>
        {files.length > 0 && <p className="panel-summary">{t('compress.summary', { count: files.length, size: sizes.bytes(total) })}</p>}
      </>
    ),
    request: requestFor(files, { action: 'compress', level }),
  });
}

/** Margins in pixels, the same for every image; the first is previewed with what they cut shaded. */
export function CropImagePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [fields, setFields] = useState<Record<Side, string>>({ top: '0', right: '0', bottom: '0', left: '0' });
  const [size, setSize] = useFirstSize(files);
  const margins = Object.fromEntries(SIDES.map((s) => [s, fields[s].trim() === '' ? NaN : Number(fields[s])])) as unknown as ImageMargins;
  const bad = SIDES.some((s) => !Number.isInteger(margins[s]) || margins[s] < 0 || margins[s] > IMAGE_MARGIN_MAX);
  const left = !bad && size ? croppedSize(size[0], size[1], margins) : null;
  const noArea = !bad && size !== null && left === null;
  const pct = (px: number, of: number) => `${Math.min(100, (px / of) * 100)}%`;
  const first = files[0];
  return layout({
    options: (
      <>
        <span className="field-label">{t('imageTools.margins')}</span>
        <MarginFields
          values={fields}
          onChange={(side, value) => setFields((f) => ({ ...f, [side]: value }))}
          input={{ inputMode: 'numeric', step: 1 }}
        />
        {bad && (
          <span className="field-error" role="alert" data-testid="margin-error">
            {t('imageTools.marginError', { max: IMAGE_MARGIN_MAX })}
          </span>
        )}
        {noArea && size && (
          <span className="field-error" role="alert" data-testid="no-area-error">
            {t('imageTools.noArea', { width: size[0], height: size[1] })}
          </span>
        )}
        {first && (
          <ImagePreview
            key={first.uid}
            file={first}
            onSize={setSize}
            overlay={
              size &&
              !bad && (
                <div
                  className="crop-keep"
                  data-testid="crop-keep"
                  style={{
                    top: pct(margins.top, size[1]),
                    right: pct(margins.right, size[0]),
                    bottom: pct(margins.bottom, size[1]),
                    left: pct(margins.left, size[0]),
                  }}
                />
              )
            }
          />
        )}
        {left && (
          <p className="panel-note" data-testid="result-size">
            {t('imageTools.resultSize', { width: left[0], height: left[1] })}
          </p>
        )}
        <Summary files={files} />
      </>
    ),
    request: requestFor(files, bad || noArea ? null : { action: 'crop', margins }),
  });
}

const formatLabels: Record<ImageOutputFormat, string> = {
  jpg: 'JPG',
  png: 'PNG',
  bmp: 'BMP',
  gif: 'GIF',
  tiff: 'TIFF',
  webp: 'WEBP',
  ico: 'ICO',
};

/** The format to write (PNG unless chosen), and an ICO's size (16 x 16 unless chosen). */
export function ConvertImagePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [format, setFormat] = useState<ImageOutputFormat>(defaultImageOutputFormat);
  const [icoSize, setIcoSize] = useState<IcoSize>(defaultIcoSize);
  return layout({
    options: (
      <>
        <label className="field">
          <span className="field-label">{t('imageTools.format')}</span>
          <select
            className="image-tool-select"
            value={format}
            data-testid="format"
            onChange={(e) => setFormat(e.target.value as ImageOutputFormat)}
          >
            {imageOutputFormats.map((f) => (
              <option key={f} value={f}>
                {formatLabels[f]}
              </option>
            ))}
          </select>
        </label>
        {format === 'ico' && (
          <label className="field">
            <span className="field-label">{t('imageTools.icoSize')}</span>
            <select
              className="image-tool-select"
              value={icoSize}
              data-testid="ico-size"
              onChange={(e) => setIcoSize(Number(e.target.value) as IcoSize)}
            >
              {icoSizes.map((s) => (
                <option key={s} value={s}>
                  {t('imageTools.pixels', { width: s, height: s })}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="panel-note">{format === 'ico' ? t('imageTools.icoHint') : t('imageTools.convertHint')}</p>
        <Summary files={files} />
      </>
    ),
    request: requestFor(files, { action: 'convert', format, ico_size: icoSize }),
  });
}

/** One percentage for both width and height; the first image's new size is shown. */
export function ResizeImagePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [text, setText] = useState(String(IMAGE_RESIZE_PERCENT.default));
  const [size, setSize] = useFirstSize(files);
  const percent = Number(text);
  const valid =
    text.trim() !== '' && Number.isInteger(percent) && percent >= IMAGE_RESIZE_PERCENT.min && percent <= IMAGE_RESIZE_PERCENT.max;
  const resized = valid && size ? resizedSize(size[0], size[1], percent) : null;
  const first = files[0];
  return layout({
    options: (
      <>
        <label className="field">
          <span className="field-label">{t('imageTools.percent')}</span>
          <input
            type="number"
            min={IMAGE_RESIZE_PERCENT.min}
            max={IMAGE_RESIZE_PERCENT.max}
            step={1}
            inputMode="numeric"
            value={text}
            aria-invalid={valid ? undefined : true}
            data-testid="resize-percent"
            onChange={(e) => setText(e.target.value)}
          />
          {!valid && (
            <span className="field-error" role="alert" data-testid="percent-error">
              {t('imageTools.percentError', { min: IMAGE_RESIZE_PERCENT.min, max: IMAGE_RESIZE_PERCENT.max })}
            </span>
          )}
        </label>
        <p className="panel-note">{t('imageTools.percentHint')}</p>
        {size && resized && (
          <p className="panel-summary" data-testid="resize-result">
            {t('imageTools.resizeResult', { width: size[0], height: size[1], newWidth: resized[0], newHeight: resized[1] })}
          </p>
        )}
        {first && <ImagePreview key={first.uid} file={first} onSize={setSize} />}
        <Summary files={files} />
      </>
    ),
    request: requestFor(files, valid ? { action: 'resize', percent } : null),
  });
}

const angles = [90, 180, 270] as const;
type Angle = (typeof angles)[number];

/** Clockwise by 90, 180 or 270 degrees; the first image is previewed turned. */
export function RotateImagePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [angle, setAngle] = useState<Angle>(90);
  const first = files[0];
  return layout({
    options: (
      <>
        <Choice<`${Angle}`>
          label={t('rotate.angle')}
          value={`${angle}`}
          options={angles.map((a) => [`${a}`, `${a}°`])}
          testId="angle"
          onChange={(a) => setAngle(Number(a) as Angle)}
        />
        {first && <ImagePreview key={first.uid} file={first} rotation={angle} />}
        <Summary files={files} />
      </>
    ),
    request: requestFor(files, { action: 'rotate', angle }),
  });
}
