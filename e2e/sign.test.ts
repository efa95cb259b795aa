// Sign PDF as a user does it, in Chromium: draw a signature with the mouse, place it on page 1,
// repeat it on page 2, add the date, apply, download, and check the file with poppler's tools; an
// account types a signature, keeps it, and signs digitally with its own PKCS#12 (checked by pdfsig);
// a locked PDF asks for its password and is signed on a phone-sized page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { makeDoc, text } from '../apps/server/test/editFixtures.js';
import { encryptPdf } from '../apps/server/test/fixtures.js';
import { dumpedSignatures, makeTestPki, startTestTsa, type TestPki, type TestTsa, verifyToken } from '../apps/server/test/signPki.js';
import { download, signInFromHeader, startE2e, tmpDir, type E2e } from './browser.js';

let e2e: E2e;
let pki: TestPki;
let tsa: TestTsa;
const dir = tmpDir('sign');
const file = (name: string) => path.join(dir, name);
const EMAIL = 'sam.signer@example.org';
const PASSWORD = 'sign-password-1';
const P12_PASSWORD = 'p12-secret-e2e';
/** Screenshots to look at, kept where QUIRE_SHOTS says (the test itself does not judge them). */
const shots = process.env.QUIRE_SHOTS;

/** The pages pdfimages lists an image on. */
const imagePages = (pdf: string) =>
  execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() && !/\bsmask\b/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

/** A self-signed signer certificate and its PKCS#12 under `name`; the password goes to openssl in a file. */
function makeP12(name: string, commonName: string, password: string) {
  fs.writeFileSync(file(`${name}.pass`), password);
  const ssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const [key, cert] = [file(`${name}.key`), file(`${name}.pem`)];
  ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${commonName}`]);
  ssl(['pkcs12', '-export', '-inkey', key, '-in', cert, '-passout', `file:${file(`${name}.pass`)}`, '-out', file(`${name}.p12`)]);
}

beforeAll(async () => {
  makeP12('sam', 'Sam Signer', P12_PASSWORD);
  makeP12('operator', 'Quire Operator', 'operator-secret');
  fs.mkdirSync(file('pki'));
  pki = makeTestPki(file('pki'), {});
  tsa = await startTestTsa(pki);
  e2e = await startE2e({
    signingCertificate: { p12File: file('operator.p12'), passwordFile: file('operator.pass') },
    timestampAuthority: { url: tsa.url, timeoutMs: 10_000 },
  });
  await makeDoc(file('contract.pdf'), {
    pages: [
      { lines: [{ text: 'The parties agree to the terms below.', x: 72, y: 760 }] },
      { lines: [{ text: 'Signed on page two.', x: 72, y: 760 }] },
    ],
  });
  encryptPdf(file('contract.pdf'), file('locked.pdf'), 'letmein1');
  await createAccount(e2e.quire.ctx, EMAIL, PASSWORD, 'free');
});
afterAll(async () => {
  await e2e.stop();
  await tsa.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sign in the browser', () => {
  it('draws a signature, places it on pages 1 and 2 with the date, and writes them into the file', async () => {
    const page = await e2e.open('/app/sign-pdf', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });

    // Draw: two strokes with the mouse, then take one back and draw it again.
    await page.getByTestId('create-signature').click();
    const pad = (await page.getByTestId('signature-pad').boundingBox())!;
    const stroke = async (points: [number, number][]) => {
      await page.mouse.move(pad.x + points[0]![0], pad.y + points[0]![1]);
      await page.mouse.down();
      for (const [x, y] of points.slice(1)) await page.mouse.move(pad.x + x, pad.y + y, { steps: 6 });
      await page.mouse.up();
    };
    const loop: [number, number][] = [
      [40, 150],
      [90, 60],
      [130, 160],
      [180, 70],
      [240, 150],
      [320, 110],
    ];
    await stroke(loop);
    await stroke([
      [60, 180],
      [300, 175],
    ]);
    await page.getByTestId('undo-stroke').click();
    await stroke([
      [60, 185],
      [300, 180],
    ]);
    await page.getByTestId('use-signature').click();
    await page.getByTestId('signature-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(1);

    // Drag it towards the bottom right; the arrow keys nudge it further.
    const mark = page.getByTestId('sign-mark').first();
    const box = (await mark.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 60, { steps: 5 });
    await page.mouse.up();
    await mark.press('Shift+ArrowLeft');
    const moved = (await mark.boundingBox())!;
    expect(moved.x).toBeGreaterThan(box.x + 40);
    expect(moved.y).toBeGreaterThan(box.y + 40);

    await page.getByTestId('repeat-all').click();
    await expect.poll(() => page.locator('.sign-thumb-count').allTextContents()).toEqual(['1', '1']);

    await page.getByTestId('add-date').click();
    await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(2);
    const date = (await page.locator('[data-testid="sign-mark"][data-kind="date"]').textContent())!;
    expect(date).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    // A name placed by mistake goes again with the Delete key.
    await page.getByTestId('name-text').fill('Ada Lovelace');
    await page.getByTestId('add-name').click();
    const name = page.locator('[data-testid="sign-mark"][data-kind="text"]');
    await name.focus();
    await name.press('Delete');
    await expect.poll(() => name.count()).toBe(0);
    expect(await page.getByTestId('mark-count').textContent()).toBe('3 marks placed');

    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(execFileSync('qpdf', ['--check', out], { encoding: 'utf8' })).toContain('No syntax or stream encoding errors');
    expect(imagePages(out)).toEqual([1, 2]);
    expect(text(out)).toContain(date);
    await page.context().close();
  });

  it('places each new mark where it is seen and covers no other: ten signatures, a name and a date', async () => {
    const page = await e2e.open('/app/sign-pdf', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });
    await page.getByTestId('create-signature').click();
    await page.getByTestId('signature-tab-type').click();
    await page.getByTestId('typed-name').fill('Sam Signer');
    await page.getByTestId('use-signature').click();
    await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(1);
    for (let n = 2; n <= 10; n++) {
      await page.getByTestId('place-signature').first().click();
      await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(n);
    }
    await page.getByTestId('name-text').fill('Sam Signer');
    await page.getByTestId('add-name').click();
    await page.getByTestId('add-date').click();
    await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(12);
    if (shots) await page.screenshot({ path: path.join(shots, 'sign-free-spots-1280.png') });

    const boxes = await page.getByTestId('sign-mark').evaluateAll((marks) => marks.map((m) => m.getBoundingClientRect().toJSON()));
    const sheet = (await page.getByTestId('sign-page').boundingBox())!;
    const window = page.viewportSize()!;
    for (const [i, a] of boxes.entries()) {
      // On the page in view (nothing scrolled), and over none of the marks placed before it.
      expect(a.left).toBeGreaterThanOrEqual(sheet.x - 1);
      expect(a.bottom).toBeLessThanOrEqual(Math.min(sheet.y + sheet.height, window.height) + 1);
      for (const b of boxes.slice(0, i)) {
        const overlap =
          Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
          Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
        expect(overlap).toBe(0);
      }
    }
    await page.context().close();
  });

  it('keeps a typed signature for the account and signs digitally with an uploaded certificate', async () => {
    const page = await e2e.open('/app/sign-pdf', { width: 1280, height: 900 });
    await signInFromHeader(page, EMAIL, PASSWORD);
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });

    await page.getByTestId('create-signature').click();
    await page.getByTestId('signature-tab-type').click();
    await page.getByTestId('typed-name').fill('Sam Signer');
    await page.getByTestId('typed-font').nth(1).check();
    expect(await page.getByTestId('save-signature').isChecked()).toBe(true);
    await page.getByTestId('use-signature').click();
    await expect.poll(() => page.getByTestId('saved-signature').count()).toBe(1);
    await expect.poll(() => page.getByTestId('sign-mark').count()).toBe(1);

    await page.getByTestId('digital-on').check();
    await page.getByTestId('certificate-uploaded').check();
    await page.getByTestId('certificate-file').setInputFiles(file('sam.p12'));
    await page.getByTestId('certificate-password').fill(P12_PASSWORD);
    // The password lives in the page's memory only.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(P12_PASSWORD);

    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    const report = execFileSync('pdfsig', [out], { encoding: 'utf8' });
    expect(report).toMatch(/Signer Certificate Common Name: Sam Signer/);
    expect(report).toMatch(/Signature Validation: Signature is Valid\./);
    expect(imagePages(out)).toEqual([1]);

    // The next visit offers the saved signature; deleting it leaves the account none.
    await page.goto(`${e2e.quire.url}/app/sign-pdf`);
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.getByTestId('saved-signature').waitFor({ timeout: 30_000 });
    await page.getByTestId('forget-signature').click();
    await expect.poll(() => page.getByTestId('saved-signature').count()).toBe(0);
    const left = await page.evaluate(async () => (await (await fetch('/api/tools/v1/file/sign')).json()).data.signatures.length);
    expect(left).toBe(0);
    await page.context().close();
  });

  it('asks for the password of a locked PDF, shows its pages and signs it with a name', async () => {
    const page = await e2e.open('/app/sign-pdf', { width: 390, height: 844 });
    await page.getByTestId('file-input').setInputFiles(file('locked.pdf'));
    await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('password-input').fill('letmein1');
    await page.getByTestId('password-submit').click();
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });
    await page.getByTestId('name-text').fill('Ada Lovelace');
    await page.getByTestId('add-name').click();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(execFileSync('pdftotext', ['-upw', 'letmein1', '-f', '1', '-l', '1', out, '-'], { encoding: 'utf8' })).toContain('Ada Lovelace');
    await page.context().close();
  });

  /** The contract on the sign page at `width`, a typed signature of `name` placed, to be signed with the operator's certificate. */
  async function signingAsOperator(width: number, name: string) {
    const page = await e2e.open('/app/sign-pdf', { width, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });
    await page.getByTestId('create-signature').click();
    await page.getByTestId('signature-tab-type').click();
    await page.getByTestId('typed-name').fill(name);
    await page.getByTestId('use-signature').click();
    await page.getByTestId('digital-on').check();
    await page.getByTestId('certificate-operator').check();
    return page;
  }

  it("signs digitally with the operator's certificate when the server has one", async () => {
    const page = await signingAsOperator(1280, 'Visiting Signer');
    expect(await page.getByTestId('certificate-file').count()).toBe(0);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    const report = execFileSync('pdfsig', [out], { encoding: 'utf8' });
    expect(report).toMatch(/Signer Certificate Common Name: Quire Operator/);
    expect(report).toMatch(/Signature Validation: Signature is Valid\./);
    await page.context().close();
  });

  it('offers a trusted timestamp only where the server has a timestamp authority, and time-stamps the signature with it', async () => {
    const page = await signingAsOperator(390, 'Stamped Signer');
    await page.getByTestId('timestamp-on').check();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(execFileSync('pdfsig', [out], { encoding: 'utf8' })).toMatch(/Signature Validation: Signature is Valid\./);
    const [signature] = dumpedSignatures(dir, out);
    expect(signature?.token).toBeDefined();
    expect(verifyToken(pki, signature!.token!, signature!.signatureValue).ok).toBe(true);
    await page.context().close();

    // Without a TSA the choice is not there (the page reads the configuration once per load).
    const config = e2e.quire.ctx.config;
    config.timestampAuthority = undefined;
    try {
      const again = await e2e.open('/app/sign-pdf', { width: 1280, height: 900 });
      await again.getByTestId('file-input').setInputFiles(file('contract.pdf'));
      await again.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });
      await again.getByTestId('digital-on').check();
      await again.getByTestId('certificate-operator').waitFor();
      expect(await again.getByTestId('timestamp-on').count()).toBe(0);
      await again.context().close();
    } finally {
      config.timestampAuthority = { url: tsa.url, timeoutMs: 10_000 };
    }
  });
});
