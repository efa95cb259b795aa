// A PostgreSQL cluster of the test's own (initdb into a temporary folder, a free port), for tests
// that stop and restart the database: the machine's shared server on 5432 serves other test files
// at the same time and is never touched.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './serverProcess.js';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, this machine only). */
  url: string;
  start(): Promise<void>;
  /** A fast shutdown: each connection is ended with 57P01, as a restart by the operator does. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/** Whether this machine has PostgreSQL 15's server programs. */
export const havePostgres = () => fs.existsSync(path.join(BIN, 'initdb'));

/**
 * initdb refuses to run as root: as root, the cluster is made and run by the postgres user, its
 * folder theirs. Each pg_ctl call waits until the server is up (or down), without blocking the
 * test's own requests meanwhile.
 */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, program), ...args]] : [path.join(BIN, program), args];
  const run = async (program: string, args: string[]) => {
    await promisify(execFile)(...command(program, args));
  };
  const data = path.join(dir, 'data');
  execFileSync(...command('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']), { stdio: 'ignore' });
  const port = await freePort();
  // The socket in its own folder: the shared server's /var/run/postgresql stays untouched.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-w', '-l', path.join(dir, 'log'), ...args]);
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgCtl('-o', options, 'start'),
    stop: () => pgCtl('-m', 'fast', 'stop'),
    restart: () => pgCtl('-m', 'fast', '-o', options, 'restart'),
    async remove() {
      // Already stopped, if it fails.
      await cluster.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
