// The uploads table: chunked uploads still being received.
import type { Db } from './connect.js';
import type { UploadTable } from './schema.js';

/** An unexpired upload of the same bytes by the same owner, which a new policy request resumes. */
export function findResumableUpload(db: Db, ownerId: string, md5: string, size: number, now: number): Promise<UploadTable | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('md5', '=', md5)
    .where('size', '=', size)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertUpload(db: Db, row: UploadTable): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

/** The upload if `ownerId` owns it, expired or not. */
export function findOwnedUpload(db: Db, ownerId: string, uploadId: string): Promise<UploadTable | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('owner_id', '=', ownerId).executeTakeFirst();
}

export async function deleteUpload(db: Db, uploadId: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', uploadId).execute();
}

export function expiredUploads(db: Db, now: number): Promise<Pick<UploadTable, 'id'>[]> {
  return db.selectFrom('uploads').select('id').where('expires_at', '<', now).execute();
}

export function uploadsOf(db: Db, ownerId: string): Promise<Pick<UploadTable, 'id'>[]> {
  return db.selectFrom('uploads').select('id').where('owner_id', '=', ownerId).execute();
}
