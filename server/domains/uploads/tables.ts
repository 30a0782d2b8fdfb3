import type { Generated, Kysely } from 'kysely';
import type { UploadMime } from '../../../protocol';
import type { Database } from '../../platform/db/schema';

/** An uploaded image. The file is `<uploads dir>/<file_name>`, a name the server chose; only its owner reads it. */
export interface UploadsTable {
  id: Generated<number>;
  user_id: number;
  file_name: string;
  /** From the file's first bytes, not from what the client said. */
  mime: UploadMime;
  size: number;
  sha256: string;
  created_at: number;
  /** Set when the owner removed it (the file is gone then). */
  deleted_at: number | null;
  /** What uses the image, e.g. `identity:12`; an attached image can no longer be deleted. */
  attached_to: string | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type UploadsTables = {
  uploads: UploadsTable;
};

export type UploadsDb = Kysely<Database & UploadsTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withUploads = (db: Kysely<Database>): UploadsDb => db.withTables<UploadsTables>();
