import type { ToolParams } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { formatBytes } from '../../ui/format';
import { fileFields, LevelCards } from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../sizeAndSecurity.css';

type Level = ToolParams<'compress'>['level'];
const levels: readonly Level[] = ['high', 'medium', 'low'];

/** Three levels as cards; each file of the list becomes its own task, all downloadable together. */
export function CompressPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const [level, setLevel] = useState<Level>('medium');
  const request: ToolRequest = files.length > 0 ? { ok: true, body: files.map((f) => ({ ...fileFields(f), level })) } : { ok: false };
  const total = files.reduce((sum, f) => sum + f.info.file_size, 0);
  const labels: Record<Level, [title: string, hint: string]> = {
    high: [t('compress.high'), t('compress.highHint')],
    medium: [t('compress.medium'), t('compress.mediumHint')],
    low: [t('compress.low'), t('compress.lowHint')],
  };

  const options = (
    <>
      <LevelCards levels={levels} labels={labels} value={level} onChange={setLevel} />
      {files.length > 0 && <p className="panel-summary">{t('compress.summary', { count: files.length, size: formatBytes(total) })}</p>}
    </>
  );
  return layout({ options, request });
}
