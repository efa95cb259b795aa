import { isPdfDocumentFormat, isPdfImageFormat } from '@quire/contracts';
import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import { PdfToDocumentPanel } from './PdfToDocumentPanel';
import { PdfToImagesPanel } from './PdfToImagesPanel';
import { isSlidesDrawingFormat, PdfToSlidesDrawingPanel } from './PdfToSlidesDrawingPanel';
import type { OptionPanelProps, ToolRequest } from './types';

/** The converter's pages: files to PDF, or (pdf-to-jpg, pdf-to-png…) a PDF to images, or (pdf-to-word…) a PDF to a document. */
export function ConvertPanel(props: OptionPanelProps) {
  if (props.tool && isPdfDocumentFormat(props.tool.extTo)) return <PdfToDocumentPanel {...props} format={props.tool.extTo} />;
  if (props.tool && isSlidesDrawingFormat(props.tool.extTo)) return <PdfToSlidesDrawingPanel {...props} format={props.tool.extTo} />;
  return props.tool && isPdfImageFormat(props.tool.extTo) ? (
    <PdfToImagesPanel {...props} format={props.tool.extTo} />
  ) : (
    <ConvertToPdfPanel {...props} />
  );
}

/** Files to PDF has no options: each file of the list becomes its own PDF, all downloadable together. */
export function ConvertToPdfPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const request: ToolRequest =
    files.length > 0 ? { ok: true, body: files.map((f) => ({ ...fileFields(f), output_format: 'pdf' as const })) } : { ok: false };
  return layout({
    options: (
      <>
        <p className="panel-note">{t('convert.help')}</p>
        {files.length > 0 && <p className="panel-summary">{t('convert.summary', { count: files.length })}</p>}
        <p className="panel-note">{t('convert.private')}</p>
      </>
    ),
    request,
  });
}
