// The AI detector's calls: text or an uploaded file scored, and the characters the plan has left.
import type { detectResult, detectorCharCheck, DetectResult, DetectorCharCheck } from '@quire/contracts';
import { aiGet, aiPost } from './ai';
import type { Answer } from './client';

export const detectText = (text: string): Promise<DetectResult> => aiPost<Answer<typeof detectResult>>('ai-detect/predict/text', { text });

/** Scores an uploaded file's text; the server deletes the file once it has read it. */
export const detectFile = (fileId: string): Promise<DetectResult> =>
  aiPost<Answer<typeof detectResult>>('ai-detect/predict/file', { file_id: fileId });

export const detectorChars = (): Promise<DetectorCharCheck> => aiGet<Answer<typeof detectorCharCheck>>('ai-detect/char/check', {});
