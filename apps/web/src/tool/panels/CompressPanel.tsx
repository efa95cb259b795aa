import type { ToolParams } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useSizes } from '../../ui/useSizes';
import { fileFields, LevelCards } from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../sizeAndSecurity.css';

type Level = ToolParams<'compress'>['level'];
const levels: readonly Level[] = ['high', 'medium', 'low'];

/** A target size typed in megabytes, in bytes; none when the field is empty or not a positive number. */
export const targetBytes = (megabytes: string): number | undefined => {
  const mb = Number(megabytes.trim() || Number.NaN);
  return mb > 0 ? Math.max(1, Math.round(mb * 1024 * 1024)) : undefined;
};

/** Three levels as cards and an optional target size; each file of the list becomes its own task, all downloadable together. */
export function CompressPanel({ files, layout }: OptionPanelProps) {
  const sizes = useSizes();
  const t = useT();
  const [level, setLevel] = useState<Level>('medium');
  const [targetMb, setTargetMb] = useState('');
  const target = targetBytes(targetMb);
  const request: ToolRequest =
    files.length > 0
      ? { ok: true, body: files.map((f) => ({ ...fileFields(f), level, ...(target && { target_size: target }) })) }
      : { ok: false };
  const total = files.reduce((sum, f) => sum + f.info.file_size, 0);
  const labels: Record<Level, [title: string, hint: string]> = {
    high: [t('compress.high'), t('compress.highHint')],
    medium: [t('compress.medium'), t('compress.mediumHint')],
    low: [t('compress.low'), t('compress.lowHint')],
  };

  const options = (
    <>
      <LevelCards levels={levels} labels={labels} value={level} onChange={setLevel} />
      <label className="field">
        <span className="field-label">{t('compress.target')}</span>
        <input
          type="number"
          min={0.01}
          step={0.1}
          inputMode="decimal"
          value={targetMb}
          placeholder={t('compress.targetPlaceholder')}
          data-testid="target-size"
          onChange={(e) => setTargetMb(e.target.value)}
        />
      </label>
      <p className="panel-note">{t('compress.targetHint')}</p>
      {files.length > 0 && <p className="panel-summary">{t('compress.summary', { count: files.length, size: sizes.bytes(total) })}</p>}
    </>
  );
  return layout({ options, request });
}
