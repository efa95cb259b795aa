import {
  DEFAULT_OCR_LANGUAGE,
  isImageFileName,
  OCR_SLOW_LANGUAGES,
  ocrLanguageTags,
  tesseractCode,
  type ToolParams,
} from '@quire/contracts';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { getServerConfig } from '../../api/files';
import { useI18n } from '../../i18n/I18nProvider';
import type { OptionPanelProps, ToolRequest } from './types';
import '../ocr.css';

/** A language's name in the user's language, or its code where the browser knows none. */
function languageName(code: string, locale: string): string {
  const tag = ocrLanguageTags[code];
  try {
    return (tag && new Intl.DisplayNames([locale], { type: 'language' }).of(tag)) || code;
  } catch {
    return code;
  }
}

/**
 * The languages to recognise: those the server has installed, English to start with, at least
 * one; more than three warn that recognition will be slow. Any page that can run OCR (the
 * converter's using_ocr too) shows `picker` and sends `languages`.
 */
export function useOcrLanguages(): { languages: string[]; picker: ReactNode } {
  const { t, locale } = useI18n();
  const [installed, setInstalled] = useState<string[]>([]);
  const [languages, setLanguages] = useState<string[]>([tesseractCode(DEFAULT_OCR_LANGUAGE)]);
  useEffect(() => {
    void getServerConfig().then((c) => setInstalled(c.ocr_languages));
  }, []);
  const offered = useMemo(
    () => installed.map((code) => [code, languageName(code, locale)] as const).sort((a, b) => a[1].localeCompare(b[1], locale)),
    [installed, locale],
  );
  const toggle = (code: string) => setLanguages((list) => (list.includes(code) ? list.filter((l) => l !== code) : [...list, code]));
  const picker = (
    <>
      <span className="field-label">{t('ocr.languages')}</span>
      <fieldset className="ocr-languages" aria-label={t('ocr.languages')}>
        {offered.map(([code, name]) => (
          <label key={code} className="check-row">
            <input type="checkbox" checked={languages.includes(code)} data-testid={`ocr-lang-${code}`} onChange={() => toggle(code)} />
            {name}
          </label>
        ))}
      </fieldset>
      {languages.length === 0 && (
        <p className="field-error" role="alert" data-testid="ocr-need-language">
          {t('ocr.needLanguage')}
        </p>
      )}
      {languages.length > OCR_SLOW_LANGUAGES && (
        <p className="panel-note" role="status" data-testid="ocr-slow">
          {t('ocr.slowWarning')}
        </p>
      )}
    </>
  );
  return { languages, picker };
}

/**
 * The OCR options panel: the languages, and whether pages that already have text are recognised
 * too. Images (told by their extension) are merged into one searchable PDF; each PDF is its own
 * task.
 */
export function OcrPanel({ output, files, layout }: OptionPanelProps & { output: 'pdf' | 'txt' }) {
  const { t } = useI18n();
  const { languages, picker } = useOcrLanguages();
  const [force, setForce] = useState(false);
  const [deskew, setDeskew] = useState(false);
  const common = {
    languages: languages.join(','),
    force_ocr: force,
    deskew,
    output_format: output,
  };
  const images = files.filter((f) => isImageFileName(f.name));
  const bodies: ToolParams<'ocr'>[] = [
    ...files
      .filter((f) => !isImageFileName(f.name))
      .map((f) => ({ file_ids: [f.info.file_id], ...(f.password && { passwd: f.password }), ...common })),
    ...(images.length > 0 ? [{ file_ids: images.map((f) => f.info.file_id), ...common }] : []),
  ];
  const request: ToolRequest = bodies.length > 0 && languages.length > 0 ? { ok: true, body: bodies } : { ok: false };

  return layout({
    options: (
      <>
        {picker}
        <label className="check-row">
          <input type="checkbox" checked={force} data-testid="ocr-force" onChange={(e) => setForce(e.target.checked)} />
          {t('ocr.force')}
        </label>
        <label className="check-row">
          <input type="checkbox" checked={deskew} data-testid="ocr-deskew" onChange={(e) => setDeskew(e.target.checked)} />
          {t('ocr.deskew')}
        </label>
        <p className="panel-note">{common.output_format === 'txt' ? t('ocr.textHelp') : t('ocr.help')}</p>
        {images.length > 1 && <p className="panel-summary">{t('ocr.imagesMerged', { count: images.length })}</p>}
      </>
    ),
    request,
  });
}
