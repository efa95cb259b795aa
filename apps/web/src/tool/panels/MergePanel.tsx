import { useT } from '../../i18n/I18nProvider';
import type { OptionPanelProps, ToolRequest } from './types';

/** Merge has no options beyond the order of the list, which is set by dragging files. */
export function MergePanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const locked = files.some((f) => f.password);
  const request: ToolRequest =
    files.length >= 2
      ? {
          ok: true,
          body: {
            file_ids: files.map((f) => f.info.file_id),
            ...(locked && { passwds: files.map((f) => f.password ?? '') }),
          },
        }
      : { ok: false };
  return layout({
    options: (
      <>
        <p className="panel-note">{t('merge.help')}</p>
        {files.length > 0 && (
          <p className="panel-summary">
            {t('merge.summary', { count: files.length, pages: files.reduce((sum, f) => sum + f.pageCount, 0) })}
          </p>
        )}
      </>
    ),
    request,
  });
}
