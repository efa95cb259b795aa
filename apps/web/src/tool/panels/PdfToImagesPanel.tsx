import { PDF_IMAGE_DPI, pdfImageFormats, type PdfImageFormat } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import { Choice } from './ImagesToPdfPanel';
import type { OptionPanelProps, ToolRequest } from './types';
import '../convert.css';

const formatLabels: Record<PdfImageFormat, string> = { jpg: 'JPG', png: 'PNG', bmp: 'BMP', tiff: 'TIFF', gif: 'GIF' };

/** PDF to images: the page's format (changeable) and a resolution; each PDF is its own task, one image per page. */
export function PdfToImagesPanel({ files, layout, format: pageFormat }: OptionPanelProps & { format: PdfImageFormat }) {
  const t = useT();
  const [format, setFormat] = useState<PdfImageFormat>(pageFormat);
  const [dpi, setDpi] = useState<string>(String(PDF_IMAGE_DPI.default));
  const request: ToolRequest =
    files.length > 0
      ? { ok: true, body: files.map((f) => ({ ...fileFields(f), output_format: format, dpi: Number(dpi) })) }
      : { ok: false };
  const dpiLabels: Record<string, string> = { '72': t('toImages.dpi72'), '150': t('toImages.dpi150'), '300': t('toImages.dpi300') };
  return layout({
    options: (
      <>
        <Choice<PdfImageFormat>
          label={t('toImages.format')}
          value={format}
          options={pdfImageFormats.map((f) => [f, formatLabels[f]] as [PdfImageFormat, string])}
          testId="format"
          onChange={setFormat}
        />
        <Choice
          label={t('toImages.resolution')}
          value={dpi}
          options={PDF_IMAGE_DPI.choices.map((d) => [String(d), dpiLabels[String(d)]!] as [string, string])}
          testId="dpi"
          onChange={setDpi}
        />
        <p className="panel-note">{t('toImages.help')}</p>
        {files.length > 0 && <p className="panel-summary">{t('convert.summary', { count: files.length })}</p>}
      </>
    ),
    request,
  });
}
