import { z } from 'zod/mini';
import { call, emptyResponse } from './call-spec';
import { RECORD_ID_MAX } from './fields';

/** Uploaded images (SPEC 5: ID photos, deposit proofs): the shared rules of both sides. */

/** SPEC 5 "a maximum file size": the server refuses bigger files, the client checks before sending. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The image types accepted; the server tells them by their first bytes, never by the name. */
export const UPLOAD_MIMES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type UploadMime = (typeof UPLOAD_MIMES)[number];

/** The multipart route (not in a call table: calls are form or JSON). Field name of the file: `file`. */
export const UPLOAD_IMAGE_PATH = 'upload/image';
/** GET with `?id=`: the image's bytes, for its owner only. */
export const UPLOAD_FILE_PATH = 'upload/file';

export const uploadResponse = z.object({ id: z.number(), size: z.number(), mime: z.enum(UPLOAD_MIMES) });
export type UploadResponse = z.infer<typeof uploadResponse>;

/** An upload's id as a form sends it: digits. `key` is the message when it is missing. */
export const uploadIdField = (key: string) =>
  z
    .pipe(
      z
        .string({ error: key })
        .check(
          z.trim(),
          z.minLength(1, { error: key }),
          z.maxLength(12, { error: 'invalidInput' }),
          z.regex(/^[1-9]\d*$/, { error: 'invalidInput' }),
        ),
      z.transform(Number),
    )
    .check(z.refine((id) => id <= RECORD_ID_MAX, { error: key }));

export const uploadDeleteRequest = z.object({ id: uploadIdField('uploadNotFound') });

/** The upload calls (its domain names them in its contract; the upload itself is multipart, not a call). */
export const uploadCalls = {
  'upload/delete': call('POST', true, uploadDeleteRequest, emptyResponse),
} as const;
