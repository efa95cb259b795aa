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
