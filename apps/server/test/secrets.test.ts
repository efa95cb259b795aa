// A file's password (and a signing certificate's) never leaves the request that carries it: no engine gets it on its command
// line (every local user can read those), and no logged URL holds it. Every engine start is
// recorded by wrappers first on PATH, and /proc is sampled while the tasks run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, protectPasswordMessage, type TaskEntry } from '@quire/contracts';
import { Client, startQuire, type Running } from './harness.js';
import { encryptPdf, makePdf, pageLabels, requiresPassword } from './fixtures.js';

const PASSWORD = 'Zx8-secret-Qw';
const NEW_PASSWORD = 'Kp3-renewed-Vb';
const ENGINES = ['prlimit', 'qpdf', 'pdfinfo', 'pdftoppm', 'pdftotext', 'pdfimages', 'gs', 'mutool', 'ocrmypdf', 'openssl'];
/** A signing certificate's password (a PKCS#12 made for the test), sent in the sign call's body. */
const P12_PASSWORD = 'Hm5-p12-secret-Tr';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-secrets-'));
const file = (name: string) => path.join(dir, name);
const argvLog = file('argv.log');
const originalPath = process.env.PATH;
let logged = '';
const procHits: string[] = [];
let sampler: NodeJS.Timeout;
let quire: Running;
let client: Client;
let plainPdf: string;
let lockedPdf: string;
let p12: string;

/** Wrappers for each engine found on PATH: they append their command line to argvLog and run the real one. */
function wrapEngines(): string {
  const shims = file('shims');
  fs.mkdirSync(shims);
  for (const name of ENGINES) {
    let real: string;
    try {
      real = execFileSync('sh', ['-c', `command -v ${name}`])
        .toString()
        .trim();
    } catch {
      continue;
    }
    const script = `#!/bin/sh\nprintf '%s ' ${name} "$@" >> '${argvLog}'\necho >> '${argvLog}'\nexec '${real}' "$@"\n`;
    fs.writeFileSync(path.join(shims, name), script, { mode: 0o755 });
  }
  return shims;
}

/** Every process's command line that holds a password, read from /proc. */
function sampleProc() {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if ([PASSWORD, NEW_PASSWORD, P12_PASSWORD].some((secret) => cmdline.includes(secret))) procHits.push(cmdline);
    } catch {
      // The process ended between listing and reading.
    }
  }
}

/** Files left in qpdf's (and openssl's PKCS#12) private job folders (other tests' may come and go meanwhile) that hold `secret`. */
function jobFilesHolding(secret: string): string[] {
  const found: string[] = [];
  for (const folder of fs.readdirSync(os.tmpdir()).filter((d) => /^quire-(qpdf|page|p12)-/.test(d))) {
    try {
      for (const name of fs.readdirSync(path.join(os.tmpdir(), folder))) {
        const f = path.join(os.tmpdir(), folder, name);
        if (fs.readFileSync(f, 'latin1').includes(secret)) found.push(f);
      }
    } catch {
      // Removed while being read: nothing left behind.
    }
  }
  return found;
}

async function runOk(pathname: string, body: unknown, dest = file('out.bin')): Promise<TaskEntry> {
  const entry = await client.runTool(pathname, body, dest);
  expect(entry, pathname).toMatchObject({ status: 0, is_done: true });
  return entry;
}

async function waitOk(created: { code: number; msg: string; data: { task_id: string } }): Promise<TaskEntry> {
  expect(created, created.msg).toMatchObject({ code: 0 });
  const entry = await client.waitTask(created.data.task_id);
  expect(entry).toMatchObject({ status: 0, is_done: true });
  return entry;
}

beforeAll(async () => {
  // Made before the wrappers are on PATH: the test's own qpdf call carries the password.
  plainPdf = await makePdf(file('plain.pdf'), 3, 'Plain');
  lockedPdf = encryptPdf(await makePdf(file('source.pdf'), 3, 'Locked'), file('locked.pdf'), PASSWORD);
  fs.writeFileSync(file('p12-pass'), P12_PASSWORD);
  const subject = ['-subj', '/CN=Secret Keeper'];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('key.pem'), '-out', file('cert.pem'), '-days', '1', ...subject],
    {
      stdio: 'ignore',
    },
  );
  execFileSync('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    file('key.pem'),
    '-in',
    file('cert.pem'),
    '-passout',
    `file:${file('p12-pass')}`,
    '-out',
    file('c.p12'),
  ]);
  p12 = fs.readFileSync(file('c.p12')).toString('base64');
  process.env.PATH = `${wrapEngines()}:${originalPath}`;
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    logged += chunk.toString();
  });
  quire = await startQuire({}, true, logStream);
  client = new Client(quire.url);
  sampler = setInterval(sampleProc, 10);
});

afterAll(async () => {
  clearInterval(sampler);
  process.env.PATH = originalPath;
  await quire?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('passwords stay out of command lines and logs', () => {
  it('every tool opens the locked file with its password, which no engine command line and no log line holds', async () => {
    const locked = await client.uploadId(lockedPdf);
    const plain = await client.uploadId(plainPdf);
    const info = await client.call(`document/info?file_id=${locked}&passwd=${encodeURIComponent(PASSWORD)}`);
    expect(info).toMatchObject({ code: 0, data: { total_page: 3, page_w: 595, page_h: 842 } });
    expect(await client.post('document/info', { file_id: locked, passwd: PASSWORD })).toMatchObject({ code: 0, data: { total_page: 3 } });

    await waitOk(await client.call(`converter?file_id=${locked}&passwd=${encodeURIComponent(PASSWORD)}&output_format=png&dpi=72`));
    await waitOk(await client.post('converter', { file_id: locked, passwd: PASSWORD, output_format: 'docx' }));
    await runOk('merge', { file_ids: [locked, plain], passwds: [PASSWORD, ''] }, file('merged.pdf'));
    expect(pageLabels(file('merged.pdf'))).toEqual([
      'Locked Page 1',
      'Locked Page 2',
      'Locked Page 3',
      'Plain Page 1',
      'Plain Page 2',
      'Plain Page 3',
    ]);
    await runOk('document/rotate', { file_id: locked, passwd: PASSWORD, angle: 90 });
    await runOk('compress', { file_id: locked, password: PASSWORD });
    await runOk('decode', { file_id: locked, passwd: PASSWORD }, file('decoded.pdf'));
    expect(requiresPassword(file('decoded.pdf'))).toBe(2);
    await runOk('split', { file_id: locked, passwd: PASSWORD, mode: 'fixed', every: 1 });
    await runOk('extract_page', { file_id: locked, passwd: PASSWORD, pages: '2' });
    await runOk(`document/redaction/${locked}/redaction/${encodeURIComponent(PASSWORD)}`, { texts: [{ text: 'Page 2' }] });
    await runOk('encrypt', { file_id: locked, passwd: PASSWORD, password: NEW_PASSWORD }, file('renewed.pdf'));
    const signature = {
      page: 1,
      x: 10,
      y: 10,
      width: 20,
      height: 10,
      kind: 'image',
      image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    };
    await runOk(`document/content/${locked}/sign`, {
      passwd: PASSWORD,
      placements: [signature],
      digital: { certificate: 'uploaded', p12, p12_password: P12_PASSWORD },
    });
    // A wrong password is still told apart (the job file is read as the command line was).
    expect((await client.post('decode', { file_id: locked, passwd: 'not-the-one' })).code).toBe(ErrorCode.WrongPassword);

    const starts = fs.readFileSync(argvLog, 'utf8').split('\n').filter(Boolean);
    // The wrappers did see the engines, so an empty record cannot pass for a clean one.
    expect(starts.filter((l) => l.startsWith('qpdf ')).length).toBeGreaterThan(15);
    expect(starts.some((l) => l.startsWith('pdfinfo '))).toBe(true);
    expect(starts.some((l) => l.startsWith('pdftoppm '))).toBe(true);
    expect(starts.some((l) => l.startsWith('openssl pkcs12 '))).toBe(true);
    expect(starts.filter((l) => l.includes(PASSWORD) || l.includes(NEW_PASSWORD) || l.includes(P12_PASSWORD))).toEqual([]);
    expect(procHits).toEqual([]);
    expect(jobFilesHolding(PASSWORD)).toEqual([]);
    expect(jobFilesHolding(P12_PASSWORD)).toEqual([]);

    // The logger did log these requests, with the password parts of their URLs blanked.
    expect(logged).toContain('incoming request');
    expect(logged).toMatch(/"url":"\/api\/tools\/v1\/converter\?file_id=\w+&passwd=\*\*\*&output_format=png&dpi=72"/);
    expect(logged).toContain(`"url":"/api/tools/v1/document/redaction/${locked}/redaction/***"`);
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain(encodeURIComponent(PASSWORD));
    expect(logged).not.toContain(NEW_PASSWORD);
    expect(logged).not.toContain(P12_PASSWORD);

    // Checked last, and with the sampling stopped: this check's own qpdf has the password on its command line.
    clearInterval(sampler);
    expect(requiresPassword(file('renewed.pdf'), NEW_PASSWORD)).toBe(3);
    // Fourteen tasks on a shared machine: a generous bound, not a speed requirement.
  }, 600_000);
});

describe('spec deviations', () => {
  it('the converter, GET or POST, answers task_id and output_file_name (plus multi_id), the name the download gets', async () => {
    const id = await client.uploadId(plainPdf);
    const viaGet = await client.call(`converter?file_id=${id}&output_format=jpg&dpi=72`);
    expect(viaGet).toMatchObject({
      code: 0,
      data: { task_id: expect.any(String), multi_id: expect.any(String), output_file_name: 'plain.zip' },
    });
    expect((await waitOk(viaGet)).output_file_name).toBe('plain.zip');
    // A name ending in digits keeps them: the zip is named after the input, not its page images.
    const dated = (await client.upload(plainPdf, 'scan-2019.pdf')).data.file_id;
    const zipped = await client.call(`converter?file_id=${dated}&output_format=png&dpi=72`);
    expect(zipped.data.output_file_name).toBe('scan-2019.zip');
    expect((await waitOk(zipped)).output_file_name).toBe('scan-2019.zip');
    const viaPost = await client.post('converter', { file_id: id, output_format: 'docx' });
    expect(viaPost.data.output_file_name).toBe('plain.docx');
    expect((await waitOk(viaPost)).output_file_name).toBe('plain.docx');
  });

  it('compress takes the spec\'s "password" field, and prefers it to "passwd"', async () => {
    const locked = await client.uploadId(lockedPdf);
    const entry = await runOk('compress', { file_id: locked, password: PASSWORD }, file('compressed.pdf'));
    expect(entry.output_file_name).toMatch(/\.pdf$/);
    expect(requiresPassword(file('compressed.pdf'))).toBe(2);
    expect(pageLabels(file('compressed.pdf'))).toEqual(['Locked Page 1', 'Locked Page 2', 'Locked Page 3']);
    expect((await client.post('compress', { file_id: locked, password: 'not-the-one', passwd: PASSWORD })).code).toBe(
      ErrorCode.WrongPassword,
    );
    expect((await client.post('compress', { file_id: locked })).code).toBe(ErrorCode.Encrypted);
  });

  it('a validation message is the bare text, without the field it is about', async () => {
    const id = await client.uploadId(plainPdf);
    expect(await client.post('encrypt', { file_id: id, password: '12345' })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: protectPasswordMessage,
    });
    expect(await client.post('extract_page', { file_id: id, pages: 'x-y' })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'Please input something like: 1, 6-159, or 59-100',
    });
  });

  it('an encrypted upload is downloaded as it was uploaded without its password (the browser opens it with it)', async () => {
    const locked = await client.uploadId(lockedPdf);
    const res = await client.raw(`/api/tools/v1/file/download?file_id=${locked}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(lockedPdf))).toBe(true);
  });
});
