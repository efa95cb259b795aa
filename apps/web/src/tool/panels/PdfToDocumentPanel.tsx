import type { PdfDocumentFormat } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import { useOcrLanguages } from './OcrPanel';
import type { OptionPanelProps, ToolRequest } from './types';

/** The formats a scanned PDF is worth recognising for first (issue 5: Word, Excel and text). */
const ocrFormats: readonly PdfDocumentFormat[] = ['docx', 'xlsx', 'txt'];

/**
 * PDF to a document (Word, Excel, HTML, RTF, text, EPUB, Pages); each PDF is its own task. Word,
 * Excel and text offer OCR first, for scans.
 */
export function PdfToDocumentPanel({ files, layout, format }: OptionPanelProps & { format: PdfDocumentFormat }) {
  const t = useT();
  const [ocr, setOcr] = useState(false);
  const { languages, picker } = useOcrLanguages();
  const offersOcr = ocrFormats.includes(format);
  const ocrFields = offersOcr && ocr ? { using_ocr: true, languages: languages.join(',') } : {};
  const request: ToolRequest =
    files.length > 0 && !(offersOcr && ocr && languages.length === 0)
      ? { ok: true, body: files.map((f) => ({ ...fileFields(f), output_format: format, ...ocrFields })) }
      : { ok: false };
  return layout({
    options: (
      <>
        <p className="panel-note">{t('toDocument.help')}</p>
        {format === 'xlsx' && <p className="panel-note">{t('toDocument.excel')}</p>}
        {format === 'pages' && (
          <p className="panel-note" data-testid="pages-note">
            {t('toDocument.pages')}
          </p>
        )}
        {offersOcr && (
          <label className="check-row">
            <input type="checkbox" checked={ocr} data-testid="use-ocr" onChange={(e) => setOcr(e.target.checked)} />
            {t('toDocument.ocr')}
          </label>
        )}
        {offersOcr && ocr && picker}
        {files.length > 0 && <p className="panel-summary">{t('convert.summary', { count: files.length })}</p>}
      </>
    ),
    request,
  });
}
