// The editor's tools as the toolbar shows them.
import type { MessageKey } from '../i18n/translate';
import { Icon, type IconName } from '../ui/Icon';
import type { EditorMode, EditorTool } from './EditorPageView';

/** The tools of each mode, in toolbar order. */
export const TOOLS: Record<EditorMode, EditorTool[]> = {
  edit: ['select', 'editText', 'textBox', 'image', 'whiteOut', 'rectangle', 'ellipse', 'line', 'arrow'],
  annotate: [
    'select',
    'highlight',
    'underline',
    'strikeout',
    'note',
    'comment',
    'ink',
    'rectangle',
    'ellipse',
    'arrow',
    'stamp',
    'signature',
  ],
};

/** Each tool's icon and name. */
export const TOOL_LOOK: Record<EditorTool, { icon: IconName; label: MessageKey }> = {
  select: { icon: 'pointer', label: 'editor.tool.select' },
  editText: { icon: 'text', label: 'editor.tool.editText' },
  textBox: { icon: 'textBox', label: 'editor.tool.textBox' },
  image: { icon: 'image', label: 'editor.tool.image' },
  whiteOut: { icon: 'whiteOut', label: 'editor.tool.whiteOut' },
  rectangle: { icon: 'rectangle', label: 'editor.tool.rectangle' },
  ellipse: { icon: 'ellipse', label: 'editor.tool.ellipse' },
  line: { icon: 'line', label: 'editor.tool.line' },
  arrow: { icon: 'arrow', label: 'editor.tool.arrow' },
  highlight: { icon: 'highlight', label: 'editor.tool.highlight' },
  underline: { icon: 'underline', label: 'editor.tool.underline' },
  strikeout: { icon: 'strikeout', label: 'editor.tool.strikeout' },
  note: { icon: 'note', label: 'editor.tool.note' },
  comment: { icon: 'comment', label: 'editor.tool.comment' },
  ink: { icon: 'ink', label: 'editor.tool.ink' },
  stamp: { icon: 'stamp', label: 'editor.tool.stamp' },
  signature: { icon: 'signature', label: 'editor.tool.signature' },
};

interface ToolButtonProps {
  icon: IconName;
  /** Its name, also its tooltip: the button shows only the icon. */
  label: string;
  testId?: string;
  /** For tools: chosen or not. Left out for one-off actions. */
  pressed?: boolean;
  disabled?: boolean;
  onClick(): void;
}

/** An icon button of the toolbar or the page strip. */
export function ToolButton({ icon, label, testId, pressed, disabled, onClick }: ToolButtonProps) {
  return (
    <button
      type="button"
      className={`tool-button ${pressed ? 'active' : ''}`}
      aria-pressed={pressed}
      title={label}
      aria-label={label}
      data-testid={testId}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} size={18} />
    </button>
  );
}
