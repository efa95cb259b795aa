// The AI detector's calls under /api/ai/v2/ai-detect/: an account's (3001 for a visitor), charged in
// characters to its plan's detector quota; another account's file_id answers 2405.
import { detectFileRequest, detectorCharCheck as detectorCharCheckAnswer, detectResult, detectTextRequest } from '@quire/contracts';
import { detectFile, detectText } from '../services/aiDetect.js';
import { detectorCharCheck } from '../services/aiQuota.js';
import type { Call } from './calls.js';
import { accountOf, aiCall, clientGone } from './ai.js';

export function aiDetectCalls(): Call[] {
  return [
    aiCall({
      method: 'POST',
      path: 'ai-detect/predict/text',
      summary:
        'Scores text (250 characters at least, 11005; at most the plan’s single-request limit, 11010) for the likelihood that a machine ' +
        'wrote it, whole and per sentence, with the language model the operator set for the detector (method model) or the ' +
        'statistical detector (method statistical); its characters are charged (11009 when more than are left) and come back ' +
        'when the model fails (11020)',
      body: detectTextRequest,
      response: detectResult,
      handler: ({ body }, c) => detectText(c.ctx, accountOf(c), body.text, clientGone(c)),
    }),
    aiCall({
      method: 'POST',
      path: 'ai-detect/predict/file',
      summary:
        'Scores the text of an uploaded PDF, Word or text file as predict/text does; a file with more pages than the plan’s detector ' +
        'takes is refused (11011) and deleted',
      body: detectFileRequest,
      response: detectResult,
      handler: ({ body }, c) => detectFile(c.ctx, accountOf(c), body.file_id, clientGone(c)),
    }),
    aiCall({
      method: 'GET',
      path: 'ai-detect/char/check',
      summary: "The account's detector characters used and its plan's total (this period's: Premium's and the AI plan's month)",
      response: detectorCharCheckAnswer,
      handler: (_, c) => detectorCharCheck(c.ctx, accountOf(c)),
    }),
  ];
}
