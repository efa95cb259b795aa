// The file state machine: every file in a tool's upload
// list moves only along these transitions; anything else is refused.

export const fileStates = [
  'initial',
  'localAdded',
  'encrypted',
  'damaged',
  'ossUploading',
  'localUploaded',
  'decrypted',
  'ossUploadFailed',
  'ossSuccessful',
  'ocrChecking',
  'ocrCheckPassed',
  'ocrFileState',
  'converting',
  'convertFailed',
  'convertSuccessful',
  'tasking',
  'taskingFailed',
  'download',
] as const;
export type FileState = (typeof fileStates)[number];

type Transition = { from: readonly FileState[]; to: FileState };

// The product does not define the source state of ocrPassed, ocrFile, convertError and convertSuccess;
// each follows the state its name completes (ocrChecking, converting).
const transitions = {
  localAdd: { from: ['initial', 'ossSuccessful', 'ossUploadFailed'], to: 'localAdded' },
  encrypt: { from: ['localAdded', 'ossUploading', 'ossSuccessful'], to: 'encrypted' },
  damage: { from: ['localAdded', 'ossUploading'], to: 'damaged' },
  upload: { from: ['decrypted', 'localAdded'], to: 'ossUploading' },
  decrypt: { from: ['localUploaded', 'ossUploading', 'encrypted'], to: 'decrypted' },
  uploadError: { from: ['ossUploading'], to: 'ossUploadFailed' },
  uploadSuccess: { from: ['ossUploading'], to: 'ossSuccessful' },
  ocrCheck: { from: ['ossSuccessful'], to: 'ocrChecking' },
  ocrPassed: { from: ['ocrChecking'], to: 'ocrCheckPassed' },
  ocrFile: { from: ['ocrChecking'], to: 'ocrFileState' },
  convert: { from: ['ossSuccessful', 'ocrCheckPassed'], to: 'converting' },
  convertError: { from: ['converting'], to: 'convertFailed' },
  convertSuccess: { from: ['converting'], to: 'convertSuccessful' },
  task: { from: ['ossSuccessful', 'convertSuccessful'], to: 'tasking' },
  taskError: { from: ['convertSuccessful', 'tasking'], to: 'taskingFailed' },
  download: { from: ['ocrChecking', 'tasking'], to: 'download' },
} as const satisfies Record<string, Transition>;

export type FileEvent = keyof typeof transitions;
export type FileAction = { type: FileEvent } | { type: 'goto'; to: FileState };

/** The state `action` leads to from `state`, or null when the machine refuses it. */
export function nextFileState(state: FileState, action: FileAction): FileState | null {
  if (action.type === 'goto') return action.to;
  const t: Transition = transitions[action.type];
  return t.from.includes(state) ? t.to : null;
}
