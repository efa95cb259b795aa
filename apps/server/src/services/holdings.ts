// What one visitor or account, and one address, may keep on the data volume, and the reserve the
// volume keeps: uploads and results stay until retention deletes them, so without a cap many
// cookies could fill the volume, and a full volume stops the database too (ADR 0512).
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { heldBytes, noteOwnerAddress } from '../db/holdingsRepo.js';
import { addressKey } from './clientKeys.js';

/** Bytes free on the data volume for this process (statfs: blocks available to an unprivileged user). */
export async function freeBytes(ctx: AppContext): Promise<number> {
  const volume = await fs.statfs(ctx.config.dataDir);
  return volume.bavail * volume.bsize;
}

/** Whether the data volume has less free than its reserve (QUIRE_MIN_FREE_MB). */
export const diskLow = async (ctx: AppContext) => (await freeBytes(ctx)) < ctx.config.minFreeBytes;

/** 3500 while the data volume is below its reserve: a write would eat into the database's room. */
export async function checkFreeSpace(ctx: AppContext): Promise<void> {
  if (await diskLow(ctx)) throw new QuireError(ErrorCode.Busy);
}

/**
 * Refuses, before its body is read, a request that adds bytes held until retention (an upload, a
 * task's outputs) from an owner, or an address, already at its cap, or whose `adding` bytes (what
 * its declared length shows it brings at least) cannot fit in what is left: 4017. Checked before,
 * not after: the last request let in may pass the cap by the bytes its declared length does not show.
 */
export async function checkHoldings(ctx: AppContext, ownerId: string, ip: string, adding = 0): Promise<void> {
  const address = addressKey(ctx, ip);
  await noteOwnerAddress(ctx.db, address, ownerId, ctx.now());
  const past = (held: number, cap: number) => held >= cap || held + adding > cap;
  const cap = ctx.config.maxHeldBytes;
  if (
    past(await heldBytes(ctx.db, { ownerId }), cap) ||
    past(await heldBytes(ctx.db, { addressKey: address }), cap * ctx.config.ipRateFactor)
  )
    throw new QuireError(ErrorCode.HoldingLimit);
}
