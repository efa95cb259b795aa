// The image tools as a user works them, in Chromium: resize an image by half and download it,
// preview a crop, and the 20 MB refusal before upload. Downloads are decoded by ImageMagick.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { encodePng, photoRaster } from '../apps/server/test/imageFixtures.js';
import { decodeImage } from '../apps/server/test/imageDecode.js';

let e2e: E2e;
const dir = tmpDir('image-tools');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  fs.writeFileSync(file('photo.png'), encodePng(photoRaster(200, 100, 5)));
  // Grey, so a few KB: at 500 % it would have 400 million pixels, more than the image worker takes.
  fs.writeFileSync(file('wide-grey.png'), encodePng({ width: 4000, height: 4000, channels: 1, pixels: Buffer.alloc(4000 * 4000, 128) }));
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (page: Page, n: number) =>
  expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(n);

describe('image tools in the browser', () => {
  it('resizes an image by 50 % and downloads it at half its size', async () => {
    const page = await e2e.open('/app/image-resizer');
    expect(await page.locator('h1').first().textContent()).toBe('Resize image');
    await page.getByTestId('file-input').setInputFiles(file('photo.png'));
    await ready(page, 1);
    await page.getByTestId('resize-percent').fill('50');
    await expect.poll(() => page.getByTestId('resize-result').textContent()).toBe('200 × 100 pixels become 100 × 50 pixels.');
    await page.screenshot({ path: file('image-resizer.png') });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('photo-resized.png');
    expect(decodeImage(out)).toEqual([{ format: 'PNG', width: 100, height: 50 }]);
    await page.context().close();
  });

  it("shows the image worker's refusal in the page’s language, its numbers grouped the German way", async () => {
    const page = await e2e.open('/de/app/image-resizer');
    await page.getByTestId('file-input').setInputFiles(file('wide-grey.png'));
    await ready(page, 1);
    await page.getByTestId('resize-percent').fill('500');
    await page.getByTestId('run-tool').click();
    const german = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../apps/server/src/texts/locales/de-de.json'), 'utf8'));
    const wanted = german['error.limit.resize'].replace('{width}', '20.000').replace('{height}', '20.000');
    await expect.poll(() => page.getByTestId('toast').first().textContent(), { timeout: 60_000 }).toContain(wanted);
    await page.context().close();
  });

  it('refuses a percentage out of bounds and previews what a crop keeps', async () => {
    const page = await e2e.open('/app/image-resizer');
    await page.getByTestId('file-input').setInputFiles(file('photo.png'));
    await ready(page, 1);
    await page.getByTestId('resize-percent').fill('501');
    await page.getByTestId('percent-error').waitFor();
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.context().close();

    const crop = await e2e.open('/app/crop-image');
    await crop.getByTestId('file-input').setInputFiles(file('photo.png'));
    await ready(crop, 1);
    await crop.getByTestId('margin-left').fill('50');
    await crop.getByTestId('margin-top').fill('25');
    await expect.poll(() => crop.getByTestId('result-size').textContent()).toBe('What stays: 150 × 75 pixels.');
    // The kept box starts a quarter in from the left of the 200 px preview.
    expect(await crop.getByTestId('crop-keep').evaluate((e) => (e as HTMLElement).style.left)).toBe('25%');
    await crop.screenshot({ path: file('crop-image.png') });
    await crop.getByTestId('margin-bottom').fill('75');
    await crop.getByTestId('no-area-error').waitFor();
    expect(await crop.getByTestId('run-tool').isDisabled()).toBe(true);
    await crop.context().close();
  });

  it('refuses an image over 20 MB before uploading it, with the spec message', async () => {
    fs.writeFileSync(file('huge.webp'), Buffer.alloc(21 * 1024 * 1024));
    const page = await e2e.open('/app/image-compressor');
    await page.getByTestId('file-input').setInputFiles(file('huge.webp'));
    await expect.poll(() => page.getByTestId('toast').first().textContent()).toContain('Image size too large, should be less than 20MB.');
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.context().close();
  });
});
