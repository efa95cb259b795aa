// A page's form fields, filled in place: an input over each widget, the value the session holds
// (or the file's), each change one fillField operation.
import type { FormFields } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { fetchFormFields } from '../api/editor';
import { useT } from '../i18n/I18nProvider';
import { type PageFrame, rectToPage, rectToScreen } from './pageCoordinates';

export type FormField = FormFields['fields'][number];

interface FormLayerProps {
  /** The page's widgets, with the index of each among the widgets of its field. */
  fields: readonly FormWidget[];
  /** The page as uploaded, whose coordinates the server gave. */
  ownFrame: PageFrame;
  /** The page as drawn. */
  frame: PageFrame;
  zoom: number;
  values: ReadonlyMap<string, string | boolean>;
  onFill(name: string, value: string | boolean): void;
}

export interface FormWidget {
  field: FormField;
  /** Its index among the widgets of its field. */
  widget: number;
}

/** The file's fillable widgets (not signatures or push buttons), read once per file. */
export function useFormWidgets(file: { fileId: string; password?: string }): FormWidget[] {
  const [widgets, setWidgets] = useState<FormWidget[]>([]);
  const { fileId, password } = file;
  useEffect(() => {
    let current = true;
    fetchFormFields(fileId, password).then(
      ({ fields }) => {
        const seen = new Map<string, number>();
        const found = fields
          .filter((f) => f.type !== 'signature' && f.type !== 'button')
          .map((field) => {
            const widget = seen.get(field.name) ?? 0;
            seen.set(field.name, widget + 1);
            return { field, widget };
          });
        if (current) setWidgets(found);
      },
      // A form the server cannot read is not offered for filling; the rest of the editor works.
      () => {},
    );
    return () => {
      current = false;
    };
  }, [fileId, password]);
  return widgets;
}

/** A radio button's or check box's own "on" state among its field's states. */
const onStateOf = (field: FormField, widget: number) => (field.options.length === 1 ? field.options[0] : field.options[widget]) ?? 'Yes';

export function FormLayer({ fields, ownFrame, frame, zoom, values, onFill }: FormLayerProps) {
  const t = useT();
  return (
    <>
      {fields.map(({ field, widget }) => {
        const r = rectToScreen(rectToPage(field.rect, ownFrame, 1), frame, zoom);
        const style = { left: r.x, top: r.y, width: r.width, height: r.height, fontSize: Math.min(14, r.height * 0.7) };
        const value = values.get(field.name) ?? field.value;
        const common = {
          className: 'form-input',
          style,
          disabled: field.read_only,
          'aria-label': field.name || t('editor.formField'),
          'data-testid': 'form-input',
          'data-field': field.name,
          onPointerDown: (e: { stopPropagation(): void }) => e.stopPropagation(),
        };
        switch (field.type) {
          case 'text':
            // Keyed by the value too, so an undo shows in the field.
            return (
              <input
                key={`${field.name}#${widget}#${String(value)}`}
                {...common}
                type="text"
                defaultValue={String(value)}
                onBlur={(e) => e.target.value !== String(value) && onFill(field.name, e.target.value)}
              />
            );
          case 'checkbox':
            return (
              <input
                key={`${field.name}#${widget}`}
                {...common}
                type="checkbox"
                checked={value === true || (typeof value === 'string' && value !== 'Off' && value !== '')}
                onChange={(e) => onFill(field.name, e.target.checked)}
              />
            );
          case 'radio': {
            const state = onStateOf(field, widget);
            return (
              <input
                key={`${field.name}#${widget}`}
                {...common}
                type="radio"
                name={field.name}
                checked={value === state}
                onChange={() => onFill(field.name, state)}
              />
            );
          }
          case 'combobox':
          case 'listbox':
            return (
              <select
                key={`${field.name}#${widget}`}
                {...common}
                value={String(value)}
                onChange={(e) => onFill(field.name, e.target.value)}
              >
                {!field.options.includes(String(value)) && <option value={String(value)}>{String(value)}</option>}
                {field.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            );
          default:
            return null;
        }
      })}
    </>
  );
}
