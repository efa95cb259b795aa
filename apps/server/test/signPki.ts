// Test infrastructure for digital signatures: a certificate authority made with openssl at run time
// (no key is kept in the repository), signers' certificates and PKCS#12 files it issued, the CA
// trusted in an NSS database for pdfsig, and a Time Stamping Authority — OpenSSL's own
// (`openssl ts -reply`) with a certificate of the same CA, behind a small HTTP listener — that
// answers RFC 3161 requests as a real TSA does, or misbehaves on purpose.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

/** The password of every PKCS#12 the test CA issues. */
export const P12_PASSWORD = 'p12-secret';

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const ssl = (args: string[]) => run('openssl', args);

export interface TestPki {
  /** A file of the PKI's folder: ca.pem, <name>.p12, pass, tsa.pem… */
  file(name: string): string;
  /** pdfsig's report of `pdf`, with the CA trusted; `password` opens an encrypted file. */
  pdfsig(pdf: string, password?: string): string;
}

/** A certificate of `name` for `subject`, issued by the CA with the extensions of `extensions`. */
function issue(dir: string, name: string, subject: string, extensions: string) {
  const f = (n: string) => path.join(dir, n);
  fs.writeFileSync(f(`${name}.cnf`), extensions);
  ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', subject]);
  ssl(
    ['x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2'].concat([
      '-extfile',
      f(`${name}.cnf`),
      '-out',
      f(`${name}.pem`),
    ]),
  );
}

/**
 * Makes in `dir` a CA, the signers `names` (ann, bob…: "/CN=<subject>/O=Quire Tests", with their
 * PKCS#12 files, password P12_PASSWORD in the file `pass`) and a TSA certificate, and trusts the
 * CA in an NSS database.
 */
export function makeTestPki(dir: string, signers: Record<string, string>): TestPki {
  const f = (n: string) => path.join(dir, n);
  fs.mkdirSync(f('nss'), { recursive: true });
  ssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2'].concat([
      '-subj',
      '/CN=Quire Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
  );
  fs.writeFileSync(f('pass'), P12_PASSWORD);
  for (const [name, commonName] of Object.entries(signers)) {
    issue(
      dir,
      name,
      `/CN=${commonName}/O=Quire Tests`,
      'keyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=emailProtection\n',
    );
    ssl(
      ['pkcs12', '-export', '-inkey', f(`${name}.key`), '-in', f(`${name}.pem`), '-certfile', f('ca.pem')].concat([
        '-passout',
        `file:${f('pass')}`,
        '-out',
        f(`${name}.p12`),
      ]),
    );
  }
  issue(dir, 'tsa', '/CN=Quire Test TSA/O=Quire Tests', 'keyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  run('certutil', ['-N', '-d', `sql:${f('nss')}`, '--empty-password']);
  run('certutil', ['-A', '-d', `sql:${f('nss')}`, '-n', 'Quire Test CA', '-t', 'CT,C,C', '-i', f('ca.pem')]);
  return {
    file: f,
    pdfsig: (pdf, password) =>
      spawnSync('pdfsig', ['-nssdir', `sql:${f('nss')}`, ...(password ? ['-upw', password] : []), pdf], { encoding: 'utf8' }).stdout,
  };
}

/**
 * How the test TSA answers: `grant` as OpenSSL's TSA does; `reject` from a TSA section that takes
 * SHA-1 only (OpenSSL answers "rejection, bad algorithm"); `replay` the first reply it ever gave
 * (another imprint and nonce); `silent` never; `huge` more bytes than a reply may have; `error` HTTP 500.
 */
export type TsaMode = 'grant' | 'reject' | 'replay' | 'silent' | 'huge' | 'error';

export interface TestTsa {
  url: string;
  mode: TsaMode;
  /** Requests received, with their Content-Type. */
  requests: { contentType: string | undefined; bytes: number }[];
  stop(): Promise<void>;
}

/** OpenSSL's TSA (openssl ts -reply) with the PKI's TSA certificate, behind an HTTP listener on 127.0.0.1. */
export async function startTestTsa(pki: TestPki): Promise<TestTsa> {
  const f = pki.file;
  const section = (name: string, digests: string) =>
    [`[ ${name} ]`, `serial = ${f('tsaserial')}`, `signer_cert = ${f('tsa.pem')}`, `signer_key = ${f('tsa.key')}`]
      .concat([`certs = ${f('ca.pem')}`, 'signer_digest = sha256', 'default_policy = 1.2.3.4.1', `digests = ${digests}`])
      .concat(['accuracy = secs:1', 'ordering = yes', 'tsa_name = yes', 'ess_cert_id_alg = sha256', ''])
      .join('\n');
  fs.writeFileSync(f('tsa.cnf'), `[ tsa ]\ndefault_tsa = grant\n${section('grant', 'sha256, sha384, sha512')}${section('reject', 'sha1')}`);
  fs.writeFileSync(f('tsaserial'), '01\n');
  let first: Buffer | undefined;
  let served = 0;
  const held = new Set<http.ServerResponse>();
  const tsa: TestTsa = {
    url: '',
    mode: 'grant',
    requests: [],
    stop: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const reply = async (query: Buffer, section: string) => {
    const n = ++served;
    fs.writeFileSync(f(`query-${n}.tsq`), query);
    const args = [
      'ts',
      '-reply',
      '-config',
      f('tsa.cnf'),
      '-section',
      section,
      '-queryfile',
      f(`query-${n}.tsq`),
      '-out',
      f(`reply-${n}.tsr`),
    ];
    await promisify(execFile)('openssl', args);
    return fs.readFileSync(f(`reply-${n}.tsr`));
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const query = Buffer.concat(chunks);
      tsa.requests.push({ contentType: req.headers['content-type'], bytes: query.length });
      const send = (status: number, body: Buffer) => {
        res.writeHead(status, { 'content-type': 'application/timestamp-reply' });
        res.end(body);
      };
      if (tsa.mode === 'silent') held.add(res);
      else if (tsa.mode === 'error') send(500, Buffer.from('failure'));
      else if (tsa.mode === 'huge') send(200, Buffer.alloc(64 * 1024, 0x30));
      else
        void reply(query, tsa.mode === 'reject' ? 'reject' : 'grant').then(
          (answer) => {
            first ??= answer;
            send(200, tsa.mode === 'replay' ? first : answer);
          },
          () => send(500, Buffer.from('openssl failed')),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tsa.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  return tsa;
}

interface Asn1Line {
  offset: number;
  depth: number;
  header: number;
  length: number;
  text: string;
}

/** openssl asn1parse's outline of a DER file: each element's offset, depth, header and content lengths. */
function asn1(der: string): Asn1Line[] {
  return run('openssl', ['asn1parse', '-inform', 'DER', '-in', der])
    .split('\n')
    .map((line) => line.match(/^\s*(\d+):d=(\d+)\s+hl=(\d+)\s+l=\s*(\d+)\s+(.*)$/))
    .filter((m) => m !== null)
    .map((m) => ({ offset: +m[1]!, depth: +m[2]!, header: +m[3]!, length: +m[4]!, text: m[5]! }));
}

/**
 * The signatures of `pdf` as pdfsig dumps them (into a folder of `scratch`), each with its SignerInfo's signature value and
 * time-stamp token (undefined without one) as files, found by openssl asn1parse.
 */
export function dumpedSignatures(scratch: string, pdf: string, password?: string) {
  const dumpDir = fs.mkdtempSync(path.join(scratch, 'dump-'));
  const copy = path.join(dumpDir, 'signed.pdf');
  fs.copyFileSync(pdf, copy);
  spawnSync('pdfsig', [...(password ? ['-upw', password] : []), '-nocert', '-dump', copy], { cwd: dumpDir });
  const dumps = fs
    .readdirSync(dumpDir)
    .filter((n) => /\.sig\d+$/.test(n))
    .sort();
  return dumps.map((name) => {
    const cms = path.join(dumpDir, name);
    const bytes = fs.readFileSync(cms);
    const lines = asn1(cms);
    const attribute = lines.findIndex((l) => /id-smime-aa-timeStampToken/.test(l.text));
    // The signature value: the last OCTET STRING of the SignerInfo before its unsigned attributes [1].
    const unsigned = lines.findIndex((l) => /cont \[ 1 \]/.test(l.text) && l.depth === 5);
    const value = lines
      .slice(0, unsigned === -1 ? undefined : unsigned)
      .filter((l) => /OCTET STRING/.test(l.text) && l.depth === 5)
      .at(-1)!;
    const signatureValue = `${cms}.value`;
    fs.writeFileSync(signatureValue, bytes.subarray(value.offset + value.header, value.offset + value.header + value.length));
    if (attribute === -1) return { signatureValue, token: undefined };
    // The attribute's SET holds the token: the element after the SET's header.
    const tokenLine = lines[attribute + 2]!;
    const token = `${cms}.tst`;
    fs.writeFileSync(token, bytes.subarray(tokenLine.offset, tokenLine.offset + tokenLine.header + tokenLine.length));
    return { signatureValue, token };
  });
}

/** openssl ts -verify of a token over the data of `dataFile`, trusting the test CA: its output and exit status. */
export function verifyToken(pki: TestPki, token: string, dataFile: string) {
  const res = spawnSync('openssl', ['ts', '-verify', '-in', token, '-token_in', '-data', dataFile, '-CAfile', pki.file('ca.pem')], {
    encoding: 'utf8',
  });
  return { ok: res.status === 0, out: res.stdout + res.stderr };
}
