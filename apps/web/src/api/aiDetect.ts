// The AI detector's calls: text or an uploaded file scored, and the characters the plan has left.
import { detectResult, detectorCharCheck, type DetectResult, type DetectorCharCheck } from '@quire/contracts';
import { aiGet, aiPost } from './ai';

export const detectText = (text: string): Promise<DetectResult> => aiPost('ai-detect/predict/text', { text }, detectResult);

/** Scores an uploaded file's text; the server deletes the file once it has read it. */
export const detectFile = (fileId: string): Promise<DetectResult> => aiPost('ai-detect/predict/file', { file_id: fileId }, detectResult);

export const detectorChars = (): Promise<DetectorCharCheck> => aiGet('ai-detect/char/check', {}, detectorCharCheck);
