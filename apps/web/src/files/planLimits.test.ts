import { defaultLimits, MB, type LimitRole, type ServerConfig } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { fileRefusal, filesRefusal, pagesRefusal } from './planLimits';

/** The config call's answer for a role's default limits. */
function configOf(role: LimitRole): ServerConfig {
  const plan = defaultLimits[role];
  return {
    sign_in_to_download: true,
    operator_contact: '',
    signing_certificate: false,
    timestamp_authority: false,
    plan: role,
    max_file_size: plan.maxFileMb * MB,
    max_pages: plan.maxPages,
    max_files_per_task: plan.maxFilesPerTask,
    ocr: { allowed: plan.ocr.allowed, max_file_size: plan.ocr.maxFileMb * MB, max_pages: plan.ocr.maxPages },
    retention_hours: 2,
    chunk_threshold: 512 * 1024,
    part_size: 512 * 1024,
    ocr_languages: ['eng'],
  };
}

describe('the plan checked in the page', () => {
  it('offers Premium for a file over the free size, and tells a paid plan its upgraded limit', () => {
    expect(fileRefusal(configOf('free'), 'compress', 20 * MB)).toBeNull();
    expect(fileRefusal(configOf('free'), 'compress', 20 * MB + 1)).toEqual({ upgrade: 'sizeUpgrade', limit: 20 });
    expect(fileRefusal(configOf('premium'), 'compress', 100 * MB + 1)).toEqual({ upgrade: 'sizeVip', limit: 100 });
    expect(fileRefusal(configOf('ai'), 'merge', 100 * MB)).toBeNull();
  });

  it('refuses OCR on the free plan before its size, and holds paid plans to OCR’s own size', () => {
    expect(fileRefusal(configOf('free'), 'ocr', 1)).toEqual({ upgrade: 'OCRLimit', limit: 0 });
    expect(fileRefusal(configOf('premium'), 'ocr', 50 * MB)).toBeNull();
    expect(fileRefusal(configOf('premium'), 'ocr', 50 * MB + 1)).toEqual({ upgrade: 'sizeVip', limit: 50 });
  });

  it('names the page limit once pages are known', () => {
    expect(pagesRefusal(configOf('free'), 'split', 100)).toBeNull();
    expect(pagesRefusal(configOf('free'), 'split', 101)).toEqual({ upgrade: 'normalPageLimit', limit: 100 });
    expect(pagesRefusal(configOf('premium'), 'split', 2001)).toEqual({ upgrade: 'normalPageLimit', limit: 2000 });
  });

  it('counts files only where one task takes them all', () => {
    expect(filesRefusal(configOf('free'), 'merge', 5)).toBeNull();
    expect(filesRefusal(configOf('free'), 'merge', 6)).toEqual({ upgrade: 'notBatchFuncFilesLimit', limit: 5 });
    expect(filesRefusal(configOf('free'), 'images_merge_pdf', 6)).toEqual({ upgrade: 'notBatchFuncFilesLimit', limit: 5 });
    // Compress makes a task of each file.
    expect(filesRefusal(configOf('free'), 'compress', 50)).toBeNull();
    expect(filesRefusal(configOf('premium'), 'merge', 50)).toBeNull();
  });
});
