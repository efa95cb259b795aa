// Sign: signature images, typed names and dates written into the pages with MuPDF, and with
// `digital` a PAdES signature over the result (engines/pdfSignature.ts), time-stamped by the
// operator's TSA where asked (engines/timestamp.ts). An encrypted input stays encrypted: MuPDF
// appends to it with its password. Saved signatures are turned into images of the call by the
// service before the task is queued.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError, type ToolParams } from '@quire/contracts';
import { SIGN_FALLBACK_FONT_FILE, SIGN_FONT_FILES, type SignMark } from '../engines/mupdf/jobs.js';
import {
  fillSignature,
  readPkcs12,
  SIGNATURE_CONTENTS_BYTES,
  type SigningCredentials,
  TIMESTAMP_CONTENTS_BYTES,
} from '../engines/pdfSignature.js';
import { signaturePng } from '../engines/sharp.js';
import { type Timestamp, timestampOf } from '../engines/timestamp.js';
import { editWithMupdf, refusePagesPast } from './steps/mupdfEdit.js';
import { defineTool, outputName, singleInput, type ToolContext } from './tool.js';
import type { Said } from '../texts/words.js';

type SignParams = ToolParams<'sign'>;

/** Each image of the call, by its key in `images`, as a checked PNG in the work folder. */
async function imageFiles(ctx: ToolContext, p: SignParams): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [n, [key, dataUrl]] of Object.entries(p.images ?? {}).entries()) {
    const source = path.join(ctx.workDir, `signature-${n}.source`);
    const png = path.join(ctx.workDir, `signature-${n}.png`);
    await fs.writeFile(source, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    await signaturePng(source, png, ctx.workDir, ctx.limits);
    files.set(key, png);
  }
  return files;
}

/** The credentials a digital signature is made with: the caller's PKCS#12, or the operator's. */
async function credentialsOf(ctx: ToolContext, digital: NonNullable<SignParams['digital']>): Promise<SigningCredentials> {
  if (digital.certificate === 'operator') {
    const operator = ctx.signingCertificate;
    if (!operator) throw new QuireError(ErrorCode.NoCertificate);
    const [p12, password] = await Promise.all([fs.readFile(operator.p12File), fs.readFile(operator.passwordFile, 'utf8')]);
    return readPkcs12(p12, password.replace(/\r?\n$/, ''), ctx.limits);
  }
  if (!digital.p12) throw new QuireError(ErrorCode.NoCertificate);
  return readPkcs12(Buffer.from(digital.p12, 'base64'), digital.p12_password ?? '', ctx.limits);
}

/** A PDF date of `at`, in UTC. */
const pdfDate = (at: Date) => `D:${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export const sign = defineTool({
  id: 'sign',
  inputsOf: singleInput,
  check(p, [pages]) {
    refusePagesPast(p.placements, pages!, 'error.page.signaturePast');
  },
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const tsa = ctx.timestampAuthority;
    const stamped = p.digital?.timestamp === true;
    if (stamped && !tsa) throw new QuireError(ErrorCode.NoTimestampAuthority);
    // The certificate is opened first: a wrong password fails the task before any page is touched.
    const credentials = p.digital && (await credentialsOf(ctx, p.digital));
    const images = await imageFiles(ctx, p);
    const marks: SignMark[] = p.placements.map((pl) => {
      const { page, x, y, width, height } = pl;
      // The service has made every image placement name its image by image_ref.
      if (pl.kind === 'image') return { page, x, y, width, height, image: images.get(pl.image_ref!)! };
      return {
        page,
        x,
        y,
        width,
        height,
        text: { value: pl.text!, fontFile: SIGN_FONT_FILES[pl.font], fallbackFontFile: SIGN_FALLBACK_FONT_FILE, color: pl.color },
      };
    });
    const field =
      p.digital && credentials
        ? {
            appearance: p.digital.appearance,
            name: `Signature ${Date.now()}`,
            signer: credentials.signerName,
            signedAt: pdfDate(new Date()),
            contentsBytes: SIGNATURE_CONTENTS_BYTES + (stamped ? TIMESTAMP_CONTENTS_BYTES : 0),
            reason: p.digital.reason,
            location: p.digital.location,
            contactInfo: p.digital.contact_info,
          }
        : undefined;
    const { output } = await editWithMupdf(ctx, { op: 'sign', marks, ...(field && { field }) }, { appends: true });
    let timestamp: Timestamp | undefined;
    const stamp =
      stamped && tsa
        ? async (signature: Buffer) => {
            timestamp = await timestampOf(tsa.url, signature, { timeoutMs: tsa.timeoutMs, signal: ctx.limits.signal });
            return timestamp.token;
          }
        : undefined;
    if (field && credentials) await fillSignature(output, credentials, { contentsBytes: field.contentsBytes, stamp });
    const signed: Said | '' = credentials ? { key: 'note.sign.signedAs', params: { name: credentials.signerName } } : '';
    const time = timestamp?.time.toISOString().replace('T', ' ').slice(0, 19);
    const stampedAt: Said | '' = time ? { key: 'note.sign.stampedAt', params: { time } } : '';
    const note: Said = { key: 'note.sign.added', params: { count: marks.length, signed, stamped: stampedAt } };
    return [{ path: output, name: outputName(input.name, 'signed'), note }];
  },
});
