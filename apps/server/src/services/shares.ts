// Sharing a file by link, QR code or email: who may share how much, the share's own copy of what
// it shares, the mail to each recipient, and opening a share as another signed-in account.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import QRCode from 'qrcode';
import type { FastifyReply } from 'fastify';
import {
  ErrorCode,
  MAX_SHARE_RECIPIENTS,
  PERMANENT_SHARE_DAYS,
  QuireError,
  SHARE_EMAIL_PATTERN,
  ShareFileType,
  ShareType,
  linkLanguages,
  shareEmailMessages,
  shareLimitMessages,
  type ShareAnswer,
  type ShareEntry,
  type ShareRequest,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal, wordsFor } from '../texts/words.js';
import {
  clearCopy,
  countOpened,
  countSharesSince,
  deleteShare,
  deleteSharesEndedBefore,
  deleteSharesOf,
  expiredCopies,
  findOwnedShare,
  findShareByCode,
  insertShare,
  markRevoked,
  sharesOf,
} from '../db/sharesRepo.js';
import type { AccountTable, ShareTable } from '../db/schema.js';
import { findCloudFile, inAccountTurn } from '../db/cloudRepo.js';
import type { Db } from '../db/connect.js';
import { outputsOf } from '../db/tasksRepo.js';
import { newId } from '../ids.js';
import type { Identity } from './accounts.js';
import { oneOutput, sendStored } from './downloads.js';
import { safeFileName } from './fileNames.js';
import { ownedFile } from './files.js';
import { limitsOf, roleOf } from './limits.js';
import { storeWithinCapacity } from './cloud.js';
import { finishedTasks } from './tasks.js';

const DAY_MS = 86_400_000;
/** An ended share's record is kept this long, so its link still answers "expired" (11016) rather than "unknown". */
const ENDED_SHARE_RECORD_MS = 30 * DAY_MS;
const NO_RECIPIENT = 'Add at least one email address.';
const PERMANENT_NOT_IN_PLAN = 'Permanent sharing is a Premium feature. Upgrade to share without an expiry date, or choose 1, 3 or 7 days.';

/**
 * What a share is made of: bytes to copy (a tool file, a task output, which expire in hours), or a
 * cloud file, kept until its owner deletes it and so shared by reference.
 */
type ShareSource = { name: string; size: number } & ({ read(): Readable } | { cloudFileId: string });

/** Cloud files belong to the account id; shares, like tool files and tasks, to its owner id ("account:<id>"). */
const accountIdOf = (ownerId: string) => ownerId.replace(/^account:/, '');

/** The caller's cloud file, tool file or finished task's output named by the request; 2405 for another owner's, or an unknown, id. */
async function sourceOf(ctx: AppContext, identity: Identity, req: ShareRequest): Promise<ShareSource> {
  const { ownerId } = identity;
  if (req.file_type === ShareFileType.File) {
    const cloudFile = identity.account && (await findCloudFile(ctx.db, identity.account.id, req.share_key));
    if (cloudFile) return { name: cloudFile.name, size: cloudFile.size, cloudFileId: cloudFile.id };
    const file = await ownedFile(ctx, ownerId, req.share_key);
    return { name: file.name, size: file.size, read: () => ctx.storage.read(file.storage_key) };
  }
  const [task] = await finishedTasks(ctx, ownerId, { task_id: req.share_key });
  const outputs = outputsOf(task!);
  const output = oneOutput(outputs, req.index);
  if (!output) {
    if (req.index !== undefined) throw new QuireError(ErrorCode.NoData);
    throw refusal(ErrorCode.InvalidParams, 'error.share.whichOutput', { count: outputs.length });
  }
  return { name: output.name, size: output.size, read: () => ctx.storage.read(output.key) };
}

const dailyLimitReached = () => new QuireError(ErrorCode.ShareLimit, shareLimitMessages.signedIn);

/**
 * The plan's sharing rules: a visitor signs in first; a plan without sharing, or without permanent
 * shares, is offered the upgrade; past the plan's shares in a rolling 24 hours, 3023. Answers the
 * plan's shares a day.
 */
async function checkShareAllowed(ctx: AppContext, identity: Identity, days: number): Promise<number> {
  if (!identity.account) throw new QuireError(ErrorCode.ShareLimit, shareLimitMessages.signedOut);
  const plan = ctx.config.limits[roleOf(identity)];
  if (plan.sharesPerDay === 0)
    throw new QuireError(ErrorCode.ShareLimit, shareLimitMessages.notInPlan, { upgrade: 'shareUpgrade', limit: 0 });
  if (days === PERMANENT_SHARE_DAYS && !plan.permanentShare)
    throw new QuireError(ErrorCode.ShareLimit, PERMANENT_NOT_IN_PLAN, { upgrade: 'shareUpgrade', limit: 7 });
  const made = await countSharesSince(ctx.db, identity.ownerId, ctx.now() - DAY_MS);
  if (made >= plan.sharesPerDay) throw dailyLimitReached();
  return plan.sharesPerDay;
}

/** A share's copy and record, as if never made: not counted against the day's shares. */
async function discardShare(ctx: AppContext, shareId: string): Promise<void> {
  await ctx.storage.deletePrefix(`shares/${shareId}`);
  await deleteShare(ctx.db, shareId);
}

/**
 * The sender and the recipients of an email share, as the share dialog checks them; 3100 with the
 * dialog's message. The sender is the account's own address, whatever the request names (confirmed:
 * sign-in refuses an address that is not): the mail's Reply-To and subject speak in its name.
 */
function emailParties(account: AccountTable, req: ShareRequest): { sender: string; recipients: string[] } {
  const badAddress = (address: string) => refusal(ErrorCode.InvalidParams, 'error.share.badAddress', { address });
  const recipients = (req.target_email ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (recipients.length === 0) throw new QuireError(ErrorCode.InvalidParams, NO_RECIPIENT);
  const invalid = recipients.find((a) => !SHARE_EMAIL_PATTERN.test(a));
  if (invalid) throw badAddress(invalid);
  if (recipients.length > MAX_SHARE_RECIPIENTS) throw new QuireError(ErrorCode.InvalidParams, shareEmailMessages.tooMany);
  if (new Set(recipients.map((a) => a.toLowerCase())).size < recipients.length)
    throw new QuireError(ErrorCode.InvalidParams, shareEmailMessages.duplicate);
  return { sender: account.email, recipients };
}

/** The page that opens a share, in the language the share was made in (English has no prefix), as mailed account links are built. */
const shareUrl = (ctx: AppContext, share: Pick<ShareTable, 'code' | 'lang'>) =>
  `${ctx.config.publicUrl}/${share.lang ? `${share.lang}/` : ''}preview?share_id=${share.code}`;

const languagePrefix = (language: string | undefined) => linkLanguages.find((l) => l === language) ?? '';

/** A permanent share has no expiry to show, though it ends after its 3650 days like any other. */
const shownExpiry = (share: Pick<ShareTable, 'days' | 'expires_at'>) => (share.days === PERMANENT_SHARE_DAYS ? null : share.expires_at);

/** The share's mail, in the language of the page it was shared from. */
function shareMail(share: ShareTable, url: string, sender: string, message: string | undefined) {
  const words = wordsFor(share.lang);
  const until =
    shownExpiry(share) === null ? words.t('mail.share.noExpiry') : words.t('mail.share.until', { date: words.dateTime(share.expires_at) });
  const note = message?.trim() ? `\n${words.t('mail.share.wrote', { sender })}\n\n${message.trim()}\n` : '';
  // The subject is the only header built from a client's words: the name loses its control characters; the sender is the account's.
  return {
    subject: words.t('mail.share.subject', { sender, file: safeFileName(share.file_name) }),
    text: `${words.t('mail.share.text', { sender, file: share.file_name })}\n${note}\n${words.t('mail.share.open')}\n\n${url}\n\n${until}\n`,
    replyTo: sender,
  };
}

/**
 * Shares the caller's cloud file (by reference), tool file or task output (a copy kept for the
 * share's lifetime under shares/<id>/). A link (or QR code) answers the URL; an email share mails
 * it to each recipient.
 */
export async function shareFile(ctx: AppContext, identity: Identity, req: ShareRequest, asQrCode: boolean): Promise<ShareAnswer> {
  const source = await sourceOf(ctx, identity, req);
  const sharesPerDay = await checkShareAllowed(ctx, identity, req.share_days);
  const byEmail = !asQrCode && req.share_type === ShareType.Email;
  // checkShareAllowed refused a visitor: an account is signed in.
  const parties = byEmail ? emailParties(identity.account!, req) : undefined;
  if (parties && !ctx.mailer.sends) throw new QuireError(ErrorCode.InvalidParams, 'This server does not send email: share a link instead.');
  const now = ctx.now();
  const id = newId();
  const share: ShareTable = {
    id,
    code: randomBytes(16).toString('base64url'),
    owner_id: identity.ownerId,
    share_type: asQrCode ? ShareType.QrCode : req.share_type,
    file_name: source.name,
    file_size: source.size,
    storage_key: 'read' in source ? `shares/${id}/file` : '',
    cloud_file_id: 'cloudFileId' in source ? source.cloudFileId : '',
    recipients: JSON.stringify(parties?.recipients ?? []),
    days: req.share_days,
    lang: languagePrefix(req.language),
    created_at: now,
    expires_at: now + req.share_days * DAY_MS,
    revoked_at: 0,
    opened: 0,
  };
  // Counted and recorded in the account's turn (`inAccountTurn`): racing shares cannot together pass the day's limit.
  const record = async (trx: Db) => {
    if ((await countSharesSince(trx, identity.ownerId, now - DAY_MS)) >= sharesPerDay) throw dailyLimitReached();
    await insertShare(trx, share);
  };
  const account = { id: identity.account!.id, limits: limitsOf(ctx, identity) };
  if ('read' in source) {
    // The copy is kept as long as the share: it counts against the account's capacity like a cloud file.
    await ctx.storage.putStream(share.storage_key, source.read());
    await storeWithinCapacity(ctx, account, { size: source.size }, record).catch(async (e: unknown) => {
      await ctx.storage.deletePrefix(`shares/${id}`);
      throw e;
    });
  } else await inAccountTurn(ctx.db, account.id, record);
  const url = shareUrl(ctx, share);
  if (parties) {
    const mail = shareMail(share, url, parties.sender, req.message);
    try {
      for (const to of parties.recipients) await ctx.mailer.send({ to, ...mail });
    } catch (e) {
      // The error names the server's refusal, never the mail's text, which holds the link.
      console.error(`Share mail failed: ${(e as Error).message}`);
      // The sender tries again.
      await discardShare(ctx, id);
      throw new QuireError(ErrorCode.Generic, 'The email could not be sent. Please try again later.');
    }
    return { share_url: '', qr_images: [] };
  }
  return { share_url: url, qr_images: asQrCode ? [await QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, scale: 6 })] : [] };
}

/**
 * A share any signed-in account may open (the calls refuse visitors) and the storage key of its
 * bytes: 2405 for an unknown code, 11016 once expired, revoked, or its cloud file deleted.
 */
async function liveShare(ctx: AppContext, code: string): Promise<{ share: ShareTable; key: string }> {
  const share = await findShareByCode(ctx.db, code);
  if (!share) throw new QuireError(ErrorCode.NoData);
  const key = share.cloud_file_id
    ? (await findCloudFile(ctx.db, accountIdOf(share.owner_id), share.cloud_file_id))?.storage_key
    : share.storage_key;
  if (share.revoked_at > 0 || share.expires_at <= ctx.now() || !key) throw new QuireError(ErrorCode.ShareExpired);
  return { share, key };
}

export async function sharedFile(ctx: AppContext, code: string) {
  const { share } = await liveShare(ctx, code);
  return {
    file_name: share.file_name,
    source_user_id: accountIdOf(share.owner_id),
    file_size: share.file_size,
    expires_at: shownExpiry(share),
  };
}

/** Where the page fetches the bytes: this server's own path, which checks the share again. */
export async function shareDownload(ctx: AppContext, code: string) {
  const { share } = await liveShare(ctx, code);
  return { download_url: `/api/tools/v1/share/file?share_code=${encodeURIComponent(share.code)}` };
}

/** The shared bytes; a download from the start counts as an opening, the parts a viewer fetches after it do not. */
export async function sendShared(ctx: AppContext, reply: FastifyReply, code: string, rangeHeader: string | undefined) {
  const { share, key } = await liveShare(ctx, code);
  if (!rangeHeader || /^bytes=0-/.test(rangeHeader.trim())) await countOpened(ctx.db, share.id);
  reply.header('accept-ranges', 'bytes');
  return sendStored(ctx, reply, key, share.file_name, rangeHeader);
}

export async function listShares(ctx: AppContext, ownerId: string): Promise<{ shares: ShareEntry[] }> {
  // A revoked share is over for good: its owner has nothing left to copy or revoke (an expired one still shows when it ended).
  const rows = (await sharesOf(ctx.db, ownerId)).filter((s) => s.revoked_at === 0);
  return {
    shares: rows.map((s) => ({
      share_id: s.id,
      share_code: s.code,
      share_url: shareUrl(ctx, s),
      file_name: s.file_name,
      share_type: s.share_type,
      created_at: s.created_at,
      expires_at: shownExpiry(s),
      recipients: JSON.parse(s.recipients) as string[],
      opened: s.opened,
    })),
  };
}

/** Ends the owner's share at once and removes its copy; 2405 for another's, or an unknown, id. */
export async function revokeShare(ctx: AppContext, ownerId: string, shareId: string): Promise<null> {
  const share = await findOwnedShare(ctx.db, ownerId, shareId);
  if (!share) throw new QuireError(ErrorCode.NoData);
  await ctx.storage.deletePrefix(`shares/${share.id}`);
  if (share.revoked_at === 0) await markRevoked(ctx.db, share.id, ctx.now());
  return null;
}

/** Removes the copies of expired shares, and forgets shares ended long ago. */
export async function sweepShares(ctx: AppContext, now: number): Promise<void> {
  const expired = await expiredCopies(ctx.db, now);
  for (const share of expired) {
    await ctx.storage.deletePrefix(`shares/${share.id}`);
    await clearCopy(ctx.db, share.id);
  }
  await deleteSharesEndedBefore(ctx.db, now - ENDED_SHARE_RECORD_MS);
}

/** Every share of an owner whose account is deleted, with its copies. */
export async function discardSharesOf(ctx: AppContext, ownerId: string): Promise<void> {
  for (const share of await sharesOf(ctx.db, ownerId)) await ctx.storage.deletePrefix(`shares/${share.id}`);
  await deleteSharesOf(ctx.db, ownerId);
}
