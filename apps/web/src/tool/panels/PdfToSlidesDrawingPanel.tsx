import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

type SlidesDrawingFormat = 'pptx' | 'dxf';

/** PDF to PowerPoint or DXF: no options, only what the output holds; each PDF is its own task. */
export function PdfToSlidesDrawingPanel({ files, layout, format }: OptionPanelProps & { format: SlidesDrawingFormat }) {
  const t = useT();
  const request: ToolRequest =
    files.length > 0 ? { ok: true, body: files.map((f) => ({ ...fileFields(f), output_format: format })) } : { ok: false };
  return layout({
    options: (
      <>
        <p className="panel-note">{format === 'pptx' ? t('toSlides.help') : t('toDrawing.help')}</p>
        {files.length > 0 && <p className="panel-summary">{t('convert.summary', { count: files.length })}</p>}
      </>
    ),
    request,
  });
}
