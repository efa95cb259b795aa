import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import type { OptionPanelProps, ToolRequest } from './types';

/** Extract images has no options: every image of the PDF, as it is stored, downloaded one by one or as a zip. */
export function ExtractImagesPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const request: ToolRequest = file ? { ok: true, body: fileFields(file) } : { ok: false };
  return layout({ options: <p className="panel-note">{t('extractImages.help')}</p>, request });
}
