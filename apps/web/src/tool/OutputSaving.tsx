// What an output saved against its input, for tools that report the input's size (compress).
import type { TaskOutputLink } from '../api/tasks';
import { useT } from '../i18n/I18nProvider';
import { useSizes } from '../ui/useSizes';
import './sizeAndSecurity.css';

/** Percent smaller, rounded, but never "0%" for a file that did get smaller. */
export function percentSaved(before: number, after: number): number {
  if (before <= 0 || after >= before) return 0;
  return Math.max(1, Math.round((1 - after / before) * 100));
}

export function OutputSaving({ output }: { output: TaskOutputLink }) {
  const sizes = useSizes();
  const t = useT();
  if (output.inputSize === undefined) return null;
  if (output.unchanged) {
    return (
      <span className="output-saving output-unchanged" data-testid="already-optimised">
        {t('result.alreadyOptimised')}
      </span>
    );
  }
  return (
    <span className="output-saving" data-testid="saving">
      {t('result.saving', {
        before: sizes.bytes(output.inputSize),
        after: sizes.bytes(output.size),
        percent: percentSaved(output.inputSize, output.size),
      })}
    </span>
  );
}
