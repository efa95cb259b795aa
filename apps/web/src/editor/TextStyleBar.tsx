// The style of the text being edited (a run of the file, a text box) or of the next text box:
// one of the 21 families the server embeds, size, colour, bold, italic.
import { fontFamilies, type FontFamilyId } from '@quire/contracts';
import { useRef } from 'react';
import { useT } from '../i18n/I18nProvider';
import type { TextStyle } from './editOps';

const SIZE_MIN_PT = 1;
const SIZE_MAX_PT = 500;

/**
 * `continued`: the change goes on a gesture already under way (typing a size, dragging in the colour
 * picker: every change while the field keeps the focus after its first), so it joins that undo step.
 */
export function TextStyleBar({ style, onChange }: { style: TextStyle; onChange(style: TextStyle, continued: boolean): void }) {
  const t = useT();
  const changing = useRef(false);
  /** The focus and change handlers of a field whose changes come in a stream. */
  const gesture = (change: (value: string) => TextStyle | null) => ({
    onFocus: () => {
      changing.current = false;
    },
    onBlur: () => {
      changing.current = false;
    },
    onChange: (e: { target: { value: string } }) => {
      const next = change(e.target.value);
      if (!next) return;
      onChange(next, changing.current);
      changing.current = true;
    },
  });
  const toggle = (part: 'bold' | 'italic', label: string) => (
    <button
      type="button"
      className={`tool-button text-style-${part} ${style[part] ? 'active' : ''}`}
      aria-pressed={style[part]}
      aria-label={label}
      title={label}
      data-testid={`text-${part}`}
      onClick={() => onChange({ ...style, [part]: !style[part] }, false)}
    >
      {part === 'bold' ? 'B' : 'I'}
    </button>
  );
  return (
    <fieldset className="text-style-bar" aria-label={t('editor.textStyle')} data-testid="text-style">
      <select
        aria-label={t('editor.font')}
        data-testid="text-font"
        value={style.font}
        onChange={(e) => onChange({ ...style, font: e.target.value as FontFamilyId }, false)}
      >
        {fontFamilies.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      <input
        type="number"
        aria-label={t('editor.fontSize')}
        data-testid="text-size"
        min={SIZE_MIN_PT}
        max={SIZE_MAX_PT}
        step={0.5}
        value={Math.round(style.size * 10) / 10}
        {...gesture((value) => {
          const size = Number(value);
          return size >= SIZE_MIN_PT && size <= SIZE_MAX_PT ? { ...style, size } : null;
        })}
      />
      <input
        type="color"
        aria-label={t('editor.textColor')}
        data-testid="text-color"
        value={style.color}
        {...gesture((color) => ({ ...style, color }))}
      />
      {toggle('bold', t('editor.bold'))}
      {toggle('italic', t('editor.italic'))}
    </fieldset>
  );
}
