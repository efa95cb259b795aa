import type { ToolId } from '@quire/contracts';
import type { ComponentType } from 'react';
import { MergePanel } from './MergePanel';
import { DeletePanel, ExtractPanel } from './PagePickPanel';
import { RearrangePanel } from './RearrangePanel';
import { RotatePanel } from './RotatePanel';
import { SplitPanel } from './SplitPanel';
import { CropPanel } from './CropPanel';
import { RedactPanel } from './RedactPanel';
import { ReplaceTextPanel } from './ReplaceTextPanel';
import { CompressPanel } from './CompressPanel';
import { ProtectPanel } from './ProtectPanel';
import { UnlockPanel } from './UnlockPanel';
import { ConvertPanel } from './ConvertToPdfPanel';
import { ExtractImagesPanel } from './ExtractImagesPanel';
import { ImagesToPdfPanel } from './ImagesToPdfPanel';
import { ImageProcessPanel } from './ImageProcessPanel';
import { OcrPanel } from './OcrPanel';
import type { OptionPanelProps } from './types';

/** The option panel of each tool; keyed by ToolId so a new tool cannot be forgotten. */
export const optionPanels: Record<ToolId, ComponentType<OptionPanelProps>> = {
  merge: MergePanel,
  split: SplitPanel,
  extract_page: ExtractPanel,
  delete_page: DeletePanel,
  rearrange: RearrangePanel,
  rotate: RotatePanel,
  cut: CropPanel,
  redaction: RedactPanel,
  replacetext: ReplaceTextPanel,
  compress: CompressPanel,
  encrypt: ProtectPanel,
  decode: UnlockPanel,
  convert: ConvertPanel,
  images_merge_pdf: ImagesToPdfPanel,
  extract_images: ExtractImagesPanel,
  ocr: OcrPanel,
  images_process: ImageProcessPanel,
};
