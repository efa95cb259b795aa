// The keys clients are counted by without being stored: the address an IPv4 or IPv6 client counts
// as, and keyed hashes of such names under a key kept in the data folder.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { newId } from '../ids.js';

/**
 * The address a client is counted by. An IPv6 client by its /64: one subscriber's devices share
 * it, and a device can take a new address inside it at will.
 */
export function countedAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const keys = new Map<string, Buffer>();

/**
 * The key of the client hashes: 32 random bytes in the data folder, made once (linked into place,
 * so processes starting together agree on one). Kept out of the database, so a copy of it alone
 * cannot test the 2^32 IPv4 addresses against its hashes.
 */
function hashKey(dataDir: string): Buffer {
  const known = keys.get(dataDir);
  if (known) return known;
  const file = path.join(dataDir, 'anonymous-runs.key');
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${newId()}`;
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(tmp, randomBytes(32), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const key = fs.readFileSync(file);
  keys.set(dataDir, key);
  return key;
}

/** The keyed hash (hex) a client's name (`visitor:<id>`, `address:<ip>`, …) is counted under. */
export const clientKey = (ctx: AppContext, client: string) =>
  createHmac('sha256', hashKey(ctx.config.dataDir)).update(client).digest('hex');

/** The keyed hash an address (its /64 for IPv6) is kept under: the database never holds the address itself. */
export const addressKey = (ctx: AppContext, ip: string) => clientKey(ctx, `address:${countedAddress(ip)}`);
