import type { ToolId, ToolParams } from '@quire/contracts';
import type { ReactNode } from 'react';
import type { ReadyFile } from '../../files/fileList';

/**
 * The body of the tool call once the options are complete and valid; a list of bodies is one call
 * per file (compress), their tasks grouped in one multi_id.
 */
export type ToolRequest = { ok: true; body: ToolParams<ToolId> | ToolParams<ToolId>[] } | { ok: false };

export interface PanelParts {
  /** The page previews beside the options, if the tool shows them. */
  pages?: ReactNode;
  options?: ReactNode;
  request: ToolRequest;
}

export interface OptionPanelProps {
  /** Files ready to process, in list order. */
  files: ReadyFile[];
  /** Frames the panel's parts in the tool page. */
  layout(parts: PanelParts): ReactNode;
}
