import { anyEnvelope } from '../../protocol/envelope';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_PATH,
  UPLOAD_IMAGE_PATH,
  UPLOAD_MIMES,
  type UploadResponse,
  uploadCalls,
  uploadResponse,
} from '../../protocol/uploads';
import {
  apiText,
  apiUrl,
  areaApi,
  fetchBlob,
  interpret,
  type Outcome,
  reportOutcome,
  sessionHeaders,
  TIMEOUT_MS,
} from './client';

const { callApiResult } = areaApi(uploadCalls);

/**
 * Image uploads (ID photos, later deposit proofs).
 *
 * The one exception to "only client.ts talks to /api": the upload itself uses XMLHttpRequest, because ky (fetch)
 * cannot report upload progress and SPEC 5 wants a progress bar. It sends the same headers as every call
 * (`sessionHeaders`) and reads the answer with the same envelope rules (`interpret`, `reportOutcome`), so a dead
 * session still logs out. Refusals are not toasted: the upload field shows them in place, with a retry where one
 * can help. Everything else goes through client.ts.
 */

export type UploadResult =
  | { ok: true; data: UploadResponse }
  /** `retryable`: the same file may work again (network, server trouble); false when the file itself was refused. */
  | { ok: false; message: string; retryable: boolean; aborted?: boolean };

export interface UploadTask {
  result: Promise<UploadResult>;
  abort(): void;
}

/** What the client can tell before sending: an `errors` key, or null when the file may go. The server checks again. */
export function precheckImage(file: { size: number; type: string }): 'fileTooLarge' | 'notAnImage' | null {
  if (file.size > MAX_UPLOAD_BYTES) return 'fileTooLarge';
  // The browser's type comes from the name; an empty type is left to the server, which reads the bytes.
  if (file.type !== '' && !(UPLOAD_MIMES as readonly string[]).includes(file.type)) return 'notAnImage';
  return null;
}

function outcomeOf(xhr: XMLHttpRequest): Outcome {
  let raw: unknown = null;
  try {
    raw = JSON.parse(xhr.responseText);
  } catch {
    raw = null;
  }
  const env = anyEnvelope.safeParse(raw);
  const outcome = interpret(env.success ? env.data : null, raw);
  return outcome.kind === 'fail' && !env.success ? { kind: 'fail', message: apiText('uploadFailed') } : outcome;
}

/**
 * Another upload route with its own headers instead of the user's session (the support console's photo upload, with
 * its operator token): the same checks and answer; a dead session is only reported back, never a user logout.
 */
export interface UploadTarget {
  path: string;
  headers: Record<string, string>;
}

/** The whole percent an upload has sent, for its progress bar (a display figure, never an amount). */
export const uploadPercent = (fraction: number): number => Math.floor(fraction * 100);

/** Sends one image as multipart field `file`; `onProgress` gets 0..1 as the bytes go out. */
export function uploadImage(
  file: Blob,
  onProgress: (fraction: number) => void,
  name = 'image',
  target?: UploadTarget,
): UploadTask {
  const xhr = new XMLHttpRequest();
  const result = new Promise<UploadResult>((resolve) => {
    const failed = () => resolve({ ok: false, message: apiText('uploadFailed'), retryable: true });
    xhr.open('POST', apiUrl(target?.path ?? UPLOAD_IMAGE_PATH));
    for (const [header, value] of Object.entries(target?.headers ?? sessionHeaders()))
      xhr.setRequestHeader(header, value);
    xhr.timeout = TIMEOUT_MS;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = failed;
    xhr.ontimeout = failed;
    xhr.onabort = () => resolve({ ok: false, message: '', retryable: true, aborted: true });
    xhr.onload = () => {
      const outcome = outcomeOf(xhr);
      if (outcome.kind === 'fail') {
        // A refusal about the file (too big, no image) will not change on a retry; anything else may.
        resolve({ ok: false, message: outcome.message, retryable: outcome.field !== 'file' });
        return;
      }
      if (outcome.kind === 'expired') {
        if (!target) reportOutcome(outcome);
        resolve({ ok: false, message: outcome.message, retryable: false });
        return;
      }
      const parsed = uploadResponse.safeParse(outcome.data);
      if (parsed.success) resolve({ ok: true, data: parsed.data });
      else failed();
    };
    const form = new FormData();
    form.append('file', file, name);
    xhr.send(form);
  });
  return { result, abort: () => xhr.abort() };
}

/** The bytes of one of the user's uploads, for a preview; null when they cannot be had. */
export function fetchUpload(id: number, signal?: AbortSignal): Promise<Blob | null> {
  return fetchBlob(UPLOAD_FILE_PATH, { id: String(id) }, signal);
}

/** Removes one of the user's uploads (refused once it belongs to a submission). */
export function deleteUpload(id: number) {
  return callApiResult('upload/delete', { id: String(id) });
}
