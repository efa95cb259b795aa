import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

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
