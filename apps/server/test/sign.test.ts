// Sign PDF through the HTTP API: saved signatures of an account (file/sign), signature images and
// typed text written into the pages (pdfimages, pdftoppm and pdftotext -bbox find them where they
// were placed), and digital signatures checked by poppler's pdfsig against a certificate authority
// the test makes with openssl and trusts in an NSS database made with certutil.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MAX_SAVED_SIGNATURES, signMessages } from '@quire/contracts';
import { type Client, quireForTests, signedIn } from './harness.js';
import { encryptPdf, makePdf, requiresPassword } from './fixtures.js';
import { colourIn, makeDoc, words } from './editFixtures.js';
import { encodePng } from './imageFixtures.js';
import { makeTestPki, P12_PASSWORD, type TestPki } from './signPki.js';

// The test CA and certificates (signPki.ts), made at run time. The operator's PKCS#12 is read when
// a task signs with it, so the server is configured before it exists.
const pkiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sign-pki-'));
const pki = (name: string) => path.join(pkiDir, name);
afterAll(() => fs.rmSync(pkiDir, { recursive: true, force: true }));
const served = quireForTests('sign', { signingCertificate: { p12File: pki('operator.p12'), passwordFile: pki('pass') } });
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A solid blue PNG, `width` × `height` pixels, as a data URL. */
function bluePng(width: number, height: number): string {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i += 3) data[i + 2] = 255;
  return `data:image/png;base64,${encodePng({ width, height, channels: 3, pixels: data }).toString('base64')}`;
}
const svg = (body: string) => `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}`;

let account: Client;
let other: Client;
let docId: string;

beforeAll(async () => {
  const { url, ctx } = served.quire;
  [account, other] = await Promise.all([
    signedIn(url, ctx, 'signer@example.com', 'premium'),
    signedIn(url, ctx, 'other@example.com', 'premium'),
  ]);
  await makePdf(file('doc.pdf'), 3, 'Contract');
  docId = await account.uploadId(file('doc.pdf'));
});

describe('saved signatures', () => {
  it('saves, lists and deletes an account’s signatures; another account’s id is 2405; a visitor is 3001', async () => {
    const saved = await account.post('file/sign', { kind: 'drawn', image: bluePng(40, 20) });
    expect(saved.code).toBe(0);
    expect(saved.data).toMatchObject({ kind: 'drawn', width: 40, height: 20 });
    const typed = await account.post('file/sign', {
      kind: 'typed',
      image: svg('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><text x="2" y="24">Ann</text></svg>'),
    });
    expect(typed.code).toBe(0);
    // The SVG is kept as a PNG of its own size: identify reads it independently of sharp.
    const png = Buffer.from((typed.data.image as string).split(',')[1]!, 'base64');
    fs.writeFileSync(file('typed.png'), png);
    expect(run('identify', ['-format', '%m %w %h', file('typed.png')])).toBe('PNG 120 30');

    const list = await account.call('file/sign');
    expect(list.data.signatures.map((s: { id: string }) => s.id)).toEqual([typed.data.id, saved.data.id]);
    expect((await other.call('file/sign')).data.signatures).toEqual([]);
    expect((await client.call('file/sign')).code).toBe(ErrorCode.NotLogin);

    expect((await other.call(`file/sign?id=${saved.data.id}`, { method: 'DELETE' })).code).toBe(ErrorCode.NoData);
    expect((await account.call(`file/sign?id=${saved.data.id}`, { method: 'DELETE' })).code).toBe(0);
    expect((await account.post('file/sign/delete', { id: saved.data.id })).code).toBe(ErrorCode.NoData);
    expect((await account.post('file/sign/delete', { id: typed.data.id })).code).toBe(0);
    expect((await account.call('file/sign')).data.signatures).toEqual([]);
  });

  it('refuses what is not a PNG or SVG, images past the bounds, and signatures past the limit', async () => {
    const jpegLike = `data:image/png;base64,${Buffer.from('\xff\xd8\xff\xe0 not a png').toString('base64')}`;
    expect(await other.post('file/sign', { kind: 'uploaded', image: jpegLike })).toMatchObject({
      code: ErrorCode.BadSignatureImage,
      msg: signMessages.notAnImage,
    });
    expect(await other.post('file/sign', { kind: 'uploaded', image: bluePng(2001, 10) })).toMatchObject({
      code: ErrorCode.BadSignatureImage,
      msg: signMessages.imageTooLarge,
    });
    const huge = svg('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"></svg>');
    expect((await other.post('file/sign', { kind: 'drawn', image: huge })).code).toBe(ErrorCode.BadSignatureImage);
    const small = bluePng(4, 4);
    for (let i = 0; i < MAX_SAVED_SIGNATURES; i++) expect((await other.post('file/sign', { kind: 'drawn', image: small })).code).toBe(0);
    expect(await other.post('file/sign', { kind: 'drawn', image: small })).toMatchObject({
      code: ErrorCode.TooManySignatures,
      msg: signMessages.tooManySaved,
    });
  });
});

describe('query-sign-date', () => {
  it('formats today for the language', async () => {
    const now = new Date();
    const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()];
    const two = (n: number) => String(n).padStart(2, '0');
    // Near midnight UTC the server's "today" may be the next day: both are right.
    const expectDate = async (lang: string, make: (y: number, m: number, d: number) => string) => {
      const answer = await client.call(`query-sign-date?lang=${lang}&tz_offset=0`);
      const tomorrow = new Date(Date.UTC(y, m - 1, d + 1));
      expect([make(y, m, d), make(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth() + 1, tomorrow.getUTCDate())]).toContain(
        answer.data.date,
      );
    };
    await expectDate('en-us', (y, m, d) => `${two(m)}/${two(d)}/${y}`);
    await expectDate('de', (y, m, d) => `${two(d)}.${two(m)}.${y}`);
    await expectDate('ja-jp', (y, m, d) => `${y}/${two(m)}/${two(d)}`);
    await expectDate('es-ES', (y, m, d) => `${d}/${m}/${y}`);
  });
});

describe('signing', () => {
  it('writes a drawn signature on pages 1 and 3, a typed name and the date as real text, and counts them', async () => {
    const image = bluePng(200, 100);
    const placements = [
      { page: 1, x: 100, y: 200, width: 150, height: 75, kind: 'image', image },
      { page: 3, x: 300, y: 500, width: 100, height: 50, kind: 'image', image },
      { page: 1, x: 100, y: 300, width: 200, height: 30, kind: 'text', text: 'Ann Smith', font: 'dancing-script', color: '#aa0000' },
      { page: 1, x: 100, y: 340, width: 120, height: 20, kind: 'date', text: '11/26/2026' },
    ];
    const entry = await account.runTool(`document/content/${docId}/sign`, { placements }, file('signed.pdf'));
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('doc-signed.pdf');
    const out = file('signed.pdf');
    // One image object, drawn on pages 1 and 3.
    const listed = run('pdfimages', ['-list', out]).trim().split('\n').slice(2);
    expect(listed.map((l) => l.trim().split(/\s+/)[0])).toEqual(['1', '3']);
    // Where it was placed (top-left origin), and nowhere else: blue inside, white beside.
    const [r, g, b] = colourIn(out, 1, [105, 205, 245, 270]);
    expect(b).toBeGreaterThan(200);
    expect(r + g).toBeLessThan(60);
    expect(colourIn(out, 3, [305, 505, 395, 545])[2]).toBeGreaterThan(200);
    expect(colourIn(out, 3, [105, 205, 245, 270])).toEqual([255, 255, 255]);
    // The typed text is text, inside its box.
    const onPage = words(out, 1);
    for (const [word, box] of [
      ['Ann', [100, 300, 300, 330]],
      ['Smith', [100, 300, 300, 330]],
      ['11/26/2026', [100, 340, 220, 360]],
    ] as const) {
      const hit = onPage.find((w) => w.word === word);
      expect(hit, word).toBeDefined();
      const [x0, y0, x1, y1] = hit!.box;
      expect(x0).toBeGreaterThanOrEqual(box[0] - 1);
      expect(y0).toBeGreaterThanOrEqual(box[1] - 3);
      expect(x1).toBeLessThanOrEqual(box[2] + 1);
      expect(y1).toBeLessThanOrEqual(box[3] + 3);
    }
    const fonts = run('pdffonts', [out]);
    expect(fonts).toMatch(/DancingScript/);
    // DejaVu Sans (760 KB whole) goes in with the glyphs of the date only: "sub" is yes.
    expect(fonts).toMatch(/[A-Z]{6}\+DejaVuSans +CID TrueType +Identity-H +yes +yes/);
    expect(fs.statSync(out).size).toBeLessThan(200_000);
    // The pages' own text is still there.
    expect(run('pdftotext', [out, '-'])).toMatch(/Contract Page 3/);
    expect(await account.call('sign-times')).toMatchObject({ code: 0, data: { sign_times: 1, signatures: 4 } });
  });

  it('places a saved signature by id for its account only: 2405 for another account or a visitor', async () => {
    const saved = await account.post('file/sign', { kind: 'drawn', image: bluePng(30, 30) });
    const placements = [{ page: 2, x: 50, y: 50, width: 60, height: 60, kind: 'image', signature_id: saved.data.id }];
    const entry = await account.runTool(`document/content/${docId}/sign`, { placements }, file('saved.pdf'));
    expect(entry.status).toBe(0);
    expect(colourIn(file('saved.pdf'), 2, [55, 55, 105, 105])[2]).toBeGreaterThan(200);

    const otherDoc = await other.uploadId(file('doc.pdf'));
    expect((await other.post(`document/content/${otherDoc}/sign`, { placements })).code).toBe(ErrorCode.NoData);
    const visitorDoc = await client.uploadId(file('doc.pdf'));
    expect((await client.post(`document/content/${visitorDoc}/sign`, { placements })).code).toBe(ErrorCode.NoData);
    // Another's file: 2405, as for every tool.
    expect(
      (
        await other.post(`document/content/${docId}/sign`, {
          placements: [{ ...placements[0], signature_id: undefined, image: bluePng(2, 2) }],
        })
      ).code,
    ).toBe(ErrorCode.NoData);
  });

  it('places marks on a rotated page with a crop box where they were placed on the page as shown', async () => {
    await makeDoc(file('turned.pdf'), { pages: [{ rotate: 90, cropBox: [20, 30, 580, 800], lines: [{ text: 'Turned', x: 72, y: 500 }] }] });
    const turnedId = await account.uploadId(file('turned.pdf'));
    const placements = [
      { page: 1, x: 400, y: 100, width: 200, height: 40, kind: 'text', text: 'Upright Name' },
      { page: 1, x: 100, y: 300, width: 120, height: 60, kind: 'image', image: bluePng(120, 60) },
    ];
    const entry = await account.runTool(`document/content/${turnedId}/sign`, { placements }, file('turned-signed.pdf'));
    expect(entry.status).toBe(0);
    const out = file('turned-signed.pdf');
    // pdftotext -bbox measures the page as shown from its media box: this crop box starts 30 pt to
    // the right of it and 20 pt down (the page turned a quarter clockwise).
    const name = words(out, 1)
      .filter((w) => w.word === 'Upright' || w.word === 'Name')
      .map(({ box: [x0, y0, x1, y1] }) => [x0 - 30, y0 - 20, x1 - 30, y1 - 20]);
    expect(name).toHaveLength(2);
    // Upright on the page as shown: the words run left to right on one line inside the box.
    const [upright, last] = name;
    expect(upright![0]).toBeGreaterThanOrEqual(399);
    expect(last![2]).toBeLessThanOrEqual(601);
    expect(upright![1]).toBeGreaterThanOrEqual(97);
    expect(upright![3]).toBeLessThanOrEqual(143);
    expect(last![0]).toBeGreaterThan(upright![2]!);
    expect(colourIn(out, 1, [105, 305, 215, 355])[2]).toBeGreaterThan(200);
    expect(colourIn(out, 1, [105, 370, 215, 400])).toEqual([255, 255, 255]);
  });

  it('refuses a page past the last, and text none of the fonts can show', async () => {
    const past = await account.post(`document/content/${docId}/sign`, {
      placements: [{ page: 4, x: 10, y: 10, width: 50, height: 20, kind: 'text', text: 'Ann' }],
    });
    expect(past).toMatchObject({ code: ErrorCode.InvalidParams, msg: 'A signature is placed on page 4, but the document has 3 pages.' });
    const cjk = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [{ page: 1, x: 10, y: 10, width: 50, height: 20, kind: 'text', text: '山田太郎' }] },
      file('cjk.pdf'),
    );
    expect(cjk).toMatchObject({ status: ErrorCode.InvalidParams, msg: 'The text has characters none of the signature fonts can show.' });
  });

  it('asks for the password of an encrypted file, signs with it, and keeps the file locked with it', async () => {
    encryptPdf(file('doc.pdf'), file('locked.pdf'), 'open-sesame');
    const lockedId = await account.uploadId(file('locked.pdf'));
    const placements = [{ page: 1, x: 72, y: 72, width: 150, height: 20, kind: 'text', text: 'Locked Signer' }];
    const refused = await account.runTool(`document/content/${lockedId}/sign`, { placements }, file('x.pdf')).catch((e) => e);
    expect(refused.code ?? refused.status).toBe(ErrorCode.Encrypted);
    const entry = await account.runTool(
      `document/content/${lockedId}/sign`,
      { placements, passwd: 'open-sesame' },
      file('still-locked.pdf'),
    );
    expect(entry.status).toBe(0);
    expect(requiresPassword(file('still-locked.pdf'))).toBe(0);
    expect(run('pdftotext', ['-upw', 'open-sesame', file('still-locked.pdf'), '-'])).toMatch(/Locked Signer/);
  });
});

describe('digital signatures', () => {
  let testPki: TestPki;
  beforeAll(() => {
    testPki = makeTestPki(pkiDir, { ann: 'Ann Signer', bob: 'Bob Cosigner', operator: 'Quire Operator' });
  });

  const pdfsig = (pdf: string) => testPki.pdfsig(pdf);
  const digital = (signer = 'ann') => ({
    certificate: 'uploaded',
    p12: fs.readFileSync(pki(`${signer}.p12`)).toString('base64'),
    p12_password: P12_PASSWORD,
    reason: 'Agreed',
  });
  const appearanceAt = (page: number, y: number) => ({ page, x: 350, y, width: 120, height: 60, kind: 'image', image: bluePng(120, 60) });

  it('signs with an uploaded PKCS#12: pdfsig finds it valid and trusted; a second signature keeps the first valid', async () => {
    const first = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: digital() },
      file('d1.pdf'),
    );
    expect(first.status).toBe(0);
    const once = pdfsig(file('d1.pdf'));
    expect(once).toMatch(/Signer Certificate Common Name: Ann Signer/);
    expect(once).toMatch(/Signature Validation: Signature is Valid\./);
    expect(once).toMatch(/Certificate Validation: Certificate is Trusted\./);
    expect(once).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
    // The appearance shows the image where it was placed.
    expect(colourIn(file('d1.pdf'), 1, [355, 605, 465, 655])[2]).toBeGreaterThan(200);

    const d1Id = await account.uploadId(file('d1.pdf'));
    const second = await account.runTool(
      `document/content/${d1Id}/sign`,
      { placements: [appearanceAt(2, 400)], digital: digital('bob') },
      file('d2.pdf'),
    );
    expect(second.status).toBe(0);
    // An incremental update: the first revision is the start of the file, byte for byte.
    expect(
      fs
        .readFileSync(file('d2.pdf'))
        .subarray(0, fs.statSync(file('d1.pdf')).size)
        .equals(fs.readFileSync(file('d1.pdf'))),
    ).toBe(true);
    const twice = pdfsig(file('d2.pdf'));
    expect(twice.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(twice.match(/Certificate Validation: Certificate is Trusted\./g)).toHaveLength(2);
    expect(twice).toMatch(/Signature #2:\n.*\n {2}- Signer Certificate Common Name: Bob Cosigner/);
  });

  it('finds a changed byte: pdfsig says the signature is invalid', async () => {
    const bytes = fs.readFileSync(file('d1.pdf'));
    // A byte the signature covers: the first key of the file's first revision, /Type made /Typf.
    const at = bytes.indexOf('/Type') + 4;
    expect(at).toBeLessThan(1000);
    bytes[at] = 'f'.charCodeAt(0);
    fs.writeFileSync(file('tampered.pdf'), bytes);
    expect(pdfsig(file('tampered.pdf'))).not.toMatch(/Signature Validation: Signature is Valid\./);
  });

  it('signs with the operator’s certificate', async () => {
    const entry = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: { certificate: 'operator' } },
      file('operator.pdf'),
    );
    expect(entry.status).toBe(0);
    const checked = pdfsig(file('operator.pdf'));
    expect(checked).toMatch(/Signer Certificate Common Name: Quire Operator/);
    expect(checked).toMatch(/Signature Validation: Signature is Valid\./);
    expect(checked).toMatch(/Certificate Validation: Certificate is Trusted\./);
  });

  it('refuses a wrong PKCS#12 password, and a digital signature without a certificate', async () => {
    const wrong = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: { ...digital(), p12_password: 'wrong' } },
      file('w.pdf'),
    );
    expect(wrong).toMatchObject({ status: ErrorCode.BadCertificate });
    const none = await account.runTool(
      `document/content/${docId}/sign`,
      { placements: [appearanceAt(1, 600)], digital: { certificate: 'uploaded' } },
      file('none.pdf'),
    );
    expect(none).toMatchObject({ status: ErrorCode.NoCertificate });
  });
});
