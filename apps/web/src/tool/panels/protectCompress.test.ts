import { ErrorCode, errorMessages, protectPasswordMessage } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { outputLinks } from '../../api/tasks';
import enUs from '../../i18n/locales/en-us.json';
import { percentSaved } from '../OutputSaving';
import { targetBytes } from './CompressPanel';
import { passwordProblems } from './ProtectPanel';

describe('protect password, checked as typed', () => {
  it('says nothing while both fields are empty', () => {
    expect(passwordProblems('', '')).toEqual({ length: false, mismatch: false });
  });

  it('wants 6 to 20 characters', () => {
    expect(passwordProblems('12345', '').length).toBe(true);
    expect(passwordProblems('123456', '').length).toBe(false);
    expect(passwordProblems('x'.repeat(20), '').length).toBe(false);
    expect(passwordProblems('x'.repeat(21), '').length).toBe(true);
  });

  it('flags a different confirmation, but not one still being typed', () => {
    expect(passwordProblems('secret-1', 'secr').mismatch).toBe(false);
    expect(passwordProblems('secret-1', 'secx').mismatch).toBe(true);
    expect(passwordProblems('secret-1', 'secret-2').mismatch).toBe(true);
    expect(passwordProblems('secret-1', 'secret-1').mismatch).toBe(false);
  });

  it("shows the catalogue's messages in en-us", () => {
    expect(enUs['protect.lengthRule']).toBe(protectPasswordMessage);
    expect(enUs['unlock.notProtected']).toBe(errorMessages[ErrorCode.NotProtected]);
  });
});

describe('compress result', () => {
  it('rounds the saving, never to 0% for a file that got smaller', () => {
    expect(percentSaved(1000, 250)).toBe(75);
    expect(percentSaved(100_000, 99_900)).toBe(1);
    expect(percentSaved(1000, 1000)).toBe(0);
  });

  it("carries the input's size and the unchanged mark into the download links", () => {
    const base = { multi_id: 'm', tool: 'compress', status: 0, msg: 'success', progress: 100, is_done: true, output_file_name: 'a.pdf' };
    const links = outputLinks([
      { ...base, task_id: 'a', outputs: [{ index: 0, name: 'a-compressed.pdf', size: 10, input_size: 40 }] },
      { ...base, task_id: 'b', outputs: [{ index: 0, name: 'b.pdf', size: 40, input_size: 40, unchanged: true }] },
    ]);
    expect(links.map((l) => [l.inputSize, l.unchanged])).toEqual([
      [40, undefined],
      [40, true],
    ]);
  });
});

describe('compress target size', () => {
  it('turns megabytes into bytes and ignores what is not a positive size', () => {
    expect(targetBytes('2')).toBe(2 * 1024 * 1024);
    expect(targetBytes(' 0.5 ')).toBe(512 * 1024);
    expect(targetBytes('')).toBeUndefined();
    expect(targetBytes('0')).toBeUndefined();
    expect(targetBytes('-1')).toBeUndefined();
    expect(targetBytes('abc')).toBeUndefined();
  });
});
