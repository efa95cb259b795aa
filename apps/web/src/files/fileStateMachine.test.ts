import { describe, expect, it } from 'vitest';
import { fileStates, nextFileState, type FileEvent, type FileState } from './fileStateMachine';

// The file state transition table, written out again independently of the module.
const allowed: [FileEvent, FileState[], FileState][] = [
  ['localAdd', ['initial', 'ossSuccessful', 'ossUploadFailed'], 'localAdded'],
  ['encrypt', ['localAdded', 'ossUploading', 'ossSuccessful'], 'encrypted'],
  ['damage', ['localAdded', 'ossUploading'], 'damaged'],
  ['upload', ['decrypted', 'localAdded'], 'ossUploading'],
  ['decrypt', ['localUploaded', 'ossUploading', 'encrypted'], 'decrypted'],
  ['uploadError', ['ossUploading'], 'ossUploadFailed'],
  ['uploadSuccess', ['ossUploading'], 'ossSuccessful'],
  ['ocrCheck', ['ossSuccessful'], 'ocrChecking'],
  ['convert', ['ossSuccessful', 'ocrCheckPassed'], 'converting'],
  ['task', ['ossSuccessful', 'convertSuccessful'], 'tasking'],
  ['taskError', ['convertSuccessful', 'tasking'], 'taskingFailed'],
  ['download', ['ocrChecking', 'tasking'], 'download'],
];

describe('file state machine', () => {
  for (const [event, from, to] of allowed) {
    it(`${event}: allowed from ${from.join(', ')}, refused elsewhere`, () => {
      for (const state of fileStates) {
        expect(nextFileState(state, { type: event })).toBe(from.includes(state) ? to : null);
      }
    });
  }

  it('follows the upload path of a plain file', () => {
    let s: FileState = 'initial';
    for (const type of ['localAdd', 'upload', 'uploadSuccess', 'task', 'download'] as const) {
      s = nextFileState(s, { type })!;
    }
    expect(s).toBe('download');
  });

  it('follows the path of an encrypted file', () => {
    expect(nextFileState('ossUploading', { type: 'encrypt' })).toBe('encrypted');
    expect(nextFileState('encrypted', { type: 'decrypt' })).toBe('decrypted');
  });

  it('refuses to process a damaged file or one still uploading', () => {
    expect(nextFileState('damaged', { type: 'task' })).toBeNull();
    expect(nextFileState('ossUploading', { type: 'task' })).toBeNull();
    expect(nextFileState('encrypted', { type: 'task' })).toBeNull();
    expect(nextFileState('damaged', { type: 'upload' })).toBeNull();
  });

  it('goto reaches any state from any state', () => {
    for (const from of fileStates) {
      for (const to of fileStates) expect(nextFileState(from, { type: 'goto', to })).toBe(to);
    }
  });
});
