// PAdES B-T and encrypted inputs in Sign PDF: a signature time-stamped by a real RFC 3161 TSA
// (OpenSSL's, signPki.ts), its token taken out of the file by pdfsig and openssl asn1parse and
// checked by `openssl ts -verify` against the test CA over the signature value; each way a TSA can
// fail; and an encrypted PDF signed without losing its password, its permissions or its earlier
// signatures (pdfsig, qpdf and pdfinfo say so).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages } from '@quire/contracts';
import type { Config } from '../src/config.js';
import { type Client, quireForTests, signedIn } from './harness.js';
import { makePdf, requiresPassword } from './fixtures.js';
import { encodePng } from './imageFixtures.js';
import { dumpedSignatures, makeTestPki, P12_PASSWORD, startTestTsa, type TestPki, type TestTsa, verifyToken } from './signPki.js';

const pkiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pades-pki-'));
let pki: TestPki;
let tsa: TestTsa;
/** Filled before the server starts (hooks registered before quireForTests run first). */
const overrides: Partial<Config> = {};
beforeAll(async () => {
  pki = makeTestPki(pkiDir, { ann: 'Ann Signer', bob: 'Bob Cosigner' });
  tsa = await startTestTsa(pki);
  // Generous for a loaded machine (openssl answers in milliseconds); the silent TSA waits this long.
  overrides.timestampAuthority = { url: tsa.url, timeoutMs: 5000 };
}, 60_000);
afterAll(async () => {
  await tsa?.stop();
  fs.rmSync(pkiDir, { recursive: true, force: true });
});
const served = quireForTests('sign-pades', overrides);
const file = (name: string) => path.join(served.dir, name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const BLUE_PNG = (() => {
  const pixels = Buffer.alloc(40 * 20 * 3);
  for (let i = 2; i < pixels.length; i += 3) pixels[i] = 255;
  return `data:image/png;base64,${encodePng({ width: 40, height: 20, channels: 3, pixels }).toString('base64')}`;
})();
const appearanceAt = (page: number, y: number) => ({ page, x: 350, y, width: 120, height: 60, kind: 'image', image: BLUE_PNG });
const digital = (signer: string, timestamp = true) => ({
  certificate: 'uploaded',
  p12: fs.readFileSync(pki.file(`${signer}.p12`)).toString('base64'),
  p12_password: P12_PASSWORD,
  timestamp,
});

let account: Client;
let docId: string;
beforeAll(async () => {
  account = await signedIn(served.quire.url, served.quire.ctx, 'pades@example.com', 'premium');
  await makePdf(file('doc.pdf'), 2, 'Agreement');
  docId = await account.uploadId(file('doc.pdf'));
});

describe('trusted timestamps (PAdES B-T)', () => {
  it('the configuration call says a timestamp authority is there', async () => {
    expect((await account.call('config')).data.timestamp_authority).toBe(true);
  });

  it('time-stamps the signature value: pdfsig validates it, openssl ts -verify checks the token; a second signature keeps the first valid', async () => {
    const asked = tsa.requests.length;
    const first = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: digital('ann') },
      file('bt1.pdf'),
    );
    expect(first).toMatchObject({ status: 0 });
    expect(first.outputs[0]?.note).toMatch(/signed digitally as Ann Signer, timestamped \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(tsa.requests.slice(asked)).toEqual([{ contentType: 'application/timestamp-query', bytes: expect.any(Number) }]);
    const once = pki.pdfsig(file('bt1.pdf'));
    expect(once).toMatch(/Signature Validation: Signature is Valid\./);
    expect(once).toMatch(/Certificate Validation: Certificate is Trusted\./);
    const [signature] = dumpedSignatures(served.dir, file('bt1.pdf'));
    expect(signature?.token).toBeDefined();
    const verified = verifyToken(pki, signature!.token!, signature!.signatureValue);
    expect(verified.out).toMatch(/Verification: OK/);
    expect(verified.ok).toBe(true);
    // The token is over the signature value and nothing else: other data fails the check.
    fs.writeFileSync(file('other.bin'), Buffer.concat([fs.readFileSync(signature!.signatureValue), Buffer.from([0])]));
    expect(verifyToken(pki, signature!.token!, file('other.bin')).ok).toBe(false);
    const tokenText = run('openssl', ['ts', '-reply', '-in', signature!.token!, '-token_in', '-text']);
    expect(tokenText).toMatch(/Hash Algorithm: sha256/);
    expect(tokenText).toMatch(/TSA: .*Quire Test TSA/);
    expect(tokenText).toMatch(/Nonce: 0x[0-9A-F]+/);

    const bt1Id = await account.uploadId(file('bt1.pdf'));
    const second = await account.runTool(
      `document/content/${bt1Id}/sign`,
      { placements: [appearanceAt(2, 400)], digital: digital('bob') },
      file('bt2.pdf'),
    );
    expect(second).toMatchObject({ status: 0 });
    const twice = pki.pdfsig(file('bt2.pdf'));
    expect(twice.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(twice.match(/Certificate Validation: Certificate is Trusted\./g)).toHaveLength(2);
    const both = dumpedSignatures(served.dir, file('bt2.pdf'));
    expect(both).toHaveLength(2);
    for (const s of both) expect(verifyToken(pki, s.token!, s.signatureValue).ok).toBe(true);
  });

  it('a signature without the choice has no timestamp, and no request reaches the TSA', async () => {
    const asked = tsa.requests.length;
    const entry = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: digital('ann', false) },
      file('bb.pdf'),
    );
    expect(entry).toMatchObject({ status: 0 });
    expect(tsa.requests.length).toBe(asked);
    expect(dumpedSignatures(served.dir, file('bb.pdf'))[0]?.token).toBeUndefined();
  });

  it.each([
    ['reject', ErrorCode.TimestampInvalid],
    ['replay', ErrorCode.TimestampInvalid],
    ['huge', ErrorCode.TimestampInvalid],
    ['error', ErrorCode.TimestampUnavailable],
    ['silent', ErrorCode.TimestampUnavailable],
  ] as const)('a TSA answering "%s" fails the task with %i and no output', async (mode, code) => {
    tsa.mode = mode;
    try {
      const entry = await account.runTool(
        `document/content/${docId}/sign`,
        { placements: [appearanceAt(1, 600)], digital: digital('ann') },
        file(`failed-${mode}.pdf`),
      );
      expect(entry).toMatchObject({ status: code, msg: errorMessages[code] });
      expect(fs.existsSync(file(`failed-${mode}.pdf`))).toBe(false);
      expect((await account.call(`document/download-doc?task_id=${entry.task_id}`)).code).not.toBe(0);
    } finally {
      tsa.mode = 'grant';
    }
  });

  it('a timestamp asked of a server without a TSA is 4217, and the page is told there is none', async () => {
    const config = served.quire.ctx.config;
    const configured = config.timestampAuthority;
    config.timestampAuthority = undefined;
    try {
      expect((await account.call('config')).data.timestamp_authority).toBe(false);
      const entry = await account.runTool(
        `document/content/${docId}/sign`,
        { placements: [appearanceAt(1, 600)], digital: digital('ann') },
        file('no-tsa.pdf'),
      );
      expect(entry).toMatchObject({ status: ErrorCode.NoTimestampAuthority });
    } finally {
      config.timestampAuthority = configured;
    }
  });
});

describe('encrypted inputs', () => {
  const USER = 'open-sesame';
  const OWNER = 'owner-only-secret';
  const permissions = (pdf: string) =>
    run('qpdf', [`--password=${USER}`, '--show-encryption', pdf])
      .split('\n')
      .filter((l) => !/^Supplied password/.test(l));

  it('stays locked with its password and permissions, and its signature verifies with the password; a second keeps the first', async () => {
    await makePdf(file('plain.pdf'), 2, 'Secret');
    run('qpdf', [
      '--encrypt',
      USER,
      OWNER,
      '256',
      '--print=low',
      '--modify=none',
      '--extract=n',
      '--',
      file('plain.pdf'),
      file('locked.pdf'),
    ]);
    const lockedId = await account.uploadId(file('locked.pdf'));
    const entry = await account.runTool(
      `document/content/${lockedId}/sign`,
      { passwd: USER, placements: [appearanceAt(1, 600)], digital: digital('ann') },
      file('locked-signed.pdf'),
    );
    expect(entry).toMatchObject({ status: 0 });
    const out = file('locked-signed.pdf');
    // Opens only with the password: qpdf needs one, pdfinfo refuses without it.
    expect(requiresPassword(out)).toBe(0);
    expect(requiresPassword(out, USER)).toBe(3);
    expect(spawnSync('pdfinfo', [out], { encoding: 'utf8' }).status).not.toBe(0);
    expect(run('pdfinfo', ['-upw', USER, out])).toMatch(/Encrypted: +yes \(print:yes copy:no change:no addNotes:no algorithm:AES-256\)/);
    expect(permissions(out)).toEqual(permissions(file('locked.pdf')));
    // An incremental update of the encrypted file: its bytes are the start of the output.
    const input = fs.readFileSync(file('locked.pdf'));
    expect(fs.readFileSync(out).subarray(0, input.length).equals(input)).toBe(true);
    expect(run('pdftotext', ['-upw', USER, out, '-'])).toMatch(/Secret Page 2/);
    const checked = pki.pdfsig(out, USER);
    expect(checked).toMatch(/Signer Certificate Common Name: Ann Signer/);
    expect(checked).toMatch(/Signature Validation: Signature is Valid\./);
    expect(checked).toMatch(/Certificate Validation: Certificate is Trusted\./);
    const [stamped] = dumpedSignatures(served.dir, out, USER);
    expect(verifyToken(pki, stamped!.token!, stamped!.signatureValue).ok).toBe(true);

    const signedId = await account.uploadId(out);
    const second = await account.runTool(
      `document/content/${signedId}/sign`,
      { passwd: USER, placements: [appearanceAt(2, 300)], digital: digital('bob', false) },
      file('locked-twice.pdf'),
    );
    expect(second).toMatchObject({ status: 0 });
    expect(requiresPassword(file('locked-twice.pdf'))).toBe(0);
    const twice = pki.pdfsig(file('locked-twice.pdf'), USER);
    expect(twice.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(twice).toMatch(/Signer Certificate Common Name: Bob Cosigner/);
  });
});
