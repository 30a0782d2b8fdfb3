import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { OPS_UPLOAD_PATH } from '../../../protocol/ops-support';
import { platformPrincipalId } from '../../ledger';
import { recordAudit } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { errorBody, okBody } from '../../platform/http/envelope';
import { requestLang } from '../../platform/http/errors';
import type { RateLimiter } from '../../platform/security/rate-limit';
import type { UploadStore } from '../uploads';
import type { OpsGate } from './console';

const HOUR = 3_600_000;
/** Photos one operator may upload per hour (answers in support chats). */
const PER_HOUR = 120;

/**
 * POST /api/ops/upload/image (role support): a photo an operator sends in a support conversation, one multipart field
 * `file`, checked like a user's upload (size, JPEG/PNG/WebP by its bytes). It belongs to the platform principal, not
 * to any user, until a send attaches it to a conversation (whose members may then read it).
 */
export async function registerOperatorUpload(
  scope: FastifyInstance,
  gate: OpsGate,
  options: { database: DatabaseHandle; uploads: UploadStore; limiter: RateLimiter; now: () => number },
): Promise<void> {
  await scope.register(async (inner) => {
    await inner.register(multipart, {
      limits: { fileSize: options.uploads.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 100 },
    });
    inner.post(`/api/${OPS_UPLOAD_PATH}`, async (request, reply) => {
      const session = await gate(request, reply, 'support');
      if (!session) return reply;
      const lang = requestLang(request);
      if (!request.isMultipart()) return reply.code(415).send(errorBody(lang, 'contentTypeUnsupported'));
      const refusal = await options.limiter.take([
        { bucket: `ops-upload:${session.operator.id}`, max: PER_HOUR, windowMs: HOUR },
      ]);
      if (refusal)
        return errorBody(lang, 'rateLimited', { data: { retry_after: Math.ceil(refusal.retryAfterMs / 1000) } });
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (part?.fieldname !== 'file') return errorBody(lang, 'uploadMissing', { field: 'file' });
        bytes = await part.toBuffer();
      } catch (err) {
        const code = typeof err === 'object' && err && 'code' in err && typeof err.code === 'string' ? err.code : '';
        if (code === 'FST_REQ_FILE_TOO_LARGE') return errorBody(lang, 'fileTooLarge', { field: 'file' });
        return reply.code(400).send(errorBody(lang, 'bodyMalformed'));
      }
      const owner = await platformPrincipalId(options.database.db, options.now);
      const saved = await options.uploads.save(owner, bytes);
      // The file and its row are written by the store; the entry names the upload a send then attaches.
      await writeTransaction(options.database, (trx) =>
        recordAudit(trx, {
          action: 'support.upload',
          subjectType: 'upload',
          subjectId: saved.id,
          operator: session.operator.name,
          detail: { size: saved.size, mime: saved.mime },
          at: options.now(),
        }),
      );
      return okBody(saved);
    });
  });
}
