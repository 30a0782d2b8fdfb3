import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { UploadMime, UploadResponse } from '../../../protocol/identity';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { sniffImage } from './sniff';
import { withUploads } from './tables';

/** Where uploads live under the data directory. */
export const uploadsDirOf = (dataDir: string) => path.join(dataDir, 'uploads');

/** Names the server gives files: 128 random bits in hex and the extension of the sniffed type. */
const FILE_NAME_RE = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

export interface StoredFile {
  id: number;
  path: string;
  mime: UploadMime;
  size: number;
}

export interface UploadStoreOptions {
  db: Kysely<Database>;
  /** The directory for the files; without one a private temp directory is made on first use (tests). */
  dir?: string | undefined;
  maxBytes: number;
  now: () => number;
}

/**
 * Uploaded images: the bytes in files named by the server (nothing of the client's file name is kept), one
 * `uploads` row per file. Only the owner may read or remove an upload; for anybody else it does not exist.
 * An upload attached to a submission (e.g. an identity verification) can no longer be removed.
 */
/** Readers of attached uploads other than their owner (see UploadStore.shareAttached). */
export interface AttachedReaders {
  prefix: string;
  mayRead(userId: number, subjectId: number): Promise<boolean>;
}

export class UploadStore {
  readonly maxBytes: number;
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private directory: string | undefined;
  private created = false;

  constructor(options: UploadStoreOptions) {
    this.db = options.db;
    this.now = options.now;
    this.maxBytes = options.maxBytes;
    this.directory = options.dir;
  }

  /** The directory, created (owner-only) on first use. */
  dir(): string {
    if (!this.directory) this.directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-uploads-'));
    if (!this.created) {
      fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      this.created = true;
    }
    return this.directory;
  }

  /** Who besides the owner may read attached uploads, by the prefix of their `attached_to` tag. */
  private readonly readers: AttachedReaders[] = [];

  /**
   * Lets others than the owner read uploads attached with a tag `<prefix>:<id>` when `mayRead(userId, id)` says so
   * (a chat image: the conversation's members).
   */
  shareAttached(readers: AttachedReaders): void {
    this.readers.push(readers);
  }

  /** The file of an upload `userId` owns, or one attached where a registered reader lets them see it; else null. */
  async findReadable(userId: number, id: number): Promise<StoredFile | null> {
    const owned = await this.findOwned(userId, id);
    if (owned) return owned;
    const row = await withUploads(this.db)
      .selectFrom('uploads')
      .select(['id', 'file_name', 'mime', 'size', 'attached_to'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const tag = row?.attached_to ? /^([a-z_]+):(\d{1,15})$/.exec(row.attached_to) : null;
    if (!row || !tag) return null;
    const readers = this.readers.find((r) => r.prefix === tag[1]);
    if (!readers || !(await readers.mayRead(userId, Number(tag[2])))) return null;
    const file = this.pathOf(row.file_name);
    return file ? { id: row.id, path: file, mime: row.mime, size: row.size } : null;
  }

  /** Checks and stores one image of `userId`. Throws `fileTooLarge` or `notAnImage`; stores nothing then. */
  async save(userId: number, bytes: Buffer): Promise<UploadResponse> {
    if (bytes.length === 0) throw new BusinessError('uploadMissing', { field: 'file' });
    if (bytes.length > this.maxBytes) throw new BusinessError('fileTooLarge', { field: 'file' });
    const image = sniffImage(bytes);
    if (!image) throw new BusinessError('notAnImage', { field: 'file' });
    const fileName = `${randomBytes(16).toString('hex')}.${image.ext}`;
    const file = path.join(this.dir(), fileName);
    // 'wx': never overwrite (a name collision of 128 random bits would be a bug, not chance); 0600: owner only.
    await fs.promises.writeFile(file, bytes, { flag: 'wx', mode: 0o600 });
    try {
      const row = await withUploads(this.db)
        .insertInto('uploads')
        .values({
          user_id: userId,
          file_name: fileName,
          mime: image.mime,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          created_at: this.now(),
          deleted_at: null,
          attached_to: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, size: bytes.length, mime: image.mime };
    } catch (err) {
      await fs.promises.rm(file, { force: true });
      throw err;
    }
  }

  /** The file of an upload `userId` owns and has not removed; null for anything else (also another user's). */
  async findOwned(userId: number, id: number): Promise<StoredFile | null> {
    const row = await withUploads(this.db)
      .selectFrom('uploads')
      .select(['id', 'file_name', 'mime', 'size'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const file = this.pathOf(row.file_name);
    return file ? { id: row.id, path: file, mime: row.mime, size: row.size } : null;
  }

  /** Removes an upload of `userId`: `uploadNotFound` when it is not theirs (or gone), `uploadInUse` when attached. */
  async remove(userId: number, id: number): Promise<void> {
    const row = await withUploads(this.db)
      .selectFrom('uploads')
      .select(['file_name', 'attached_to'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new BusinessError('uploadNotFound', { field: 'id' });
    if (row.attached_to !== null) throw new BusinessError('uploadInUse', { field: 'id' });
    // Conditional, so a submission attaching it at the same moment wins cleanly.
    const result = await withUploads(this.db)
      .updateTable('uploads')
      .set({ deleted_at: this.now() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('attached_to', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new BusinessError('uploadInUse', { field: 'id' });
    const file = this.pathOf(row.file_name);
    if (file) await fs.promises.rm(file, { force: true });
  }

  /** The absolute path of a stored file name; null for a name the server would never have chosen. */
  pathOf(fileName: string): string | null {
    return FILE_NAME_RE.test(fileName) ? path.join(this.dir(), fileName) : null;
  }
}

/** Each upload named in `fields` must be the user's, present and unattached; else `uploadNotFound` on its field. */
export async function assertUsableUploads(
  trx: Kysely<Database>,
  userId: number,
  fields: Readonly<Record<string, number>>,
): Promise<void> {
  const rows = await withUploads(trx)
    .selectFrom('uploads')
    .select('id')
    .where('id', 'in', Object.values(fields))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('attached_to', 'is', null)
    .execute();
  const usable = new Set(rows.map((r) => r.id));
  for (const [field, id] of Object.entries(fields)) {
    if (!usable.has(id)) throw new BusinessError('uploadNotFound', { field });
  }
}

/**
 * Attaches uploads of `userId` to a submission (inside its transaction), after the same check as
 * `assertUsableUploads`. Attached uploads can no longer be removed.
 */
export async function attachUploads(
  trx: Kysely<Database>,
  userId: number,
  fields: Readonly<Record<string, number>>,
  tag: string,
): Promise<void> {
  await assertUsableUploads(trx, userId, fields);
  const ids = Object.values(fields);
  const result = await withUploads(trx)
    .updateTable('uploads')
    .set({ attached_to: tag })
    .where('id', 'in', ids)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('attached_to', 'is', null)
    .executeTakeFirst();
  // Someone removed or attached one between the check and here (PostgreSQL): refuse, the caller rolls back.
  if (Number(result.numUpdatedRows) !== ids.length) throw new BusinessError('uploadNotFound');
}
