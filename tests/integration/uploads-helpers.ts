import { randomBytes } from 'node:crypto';
import type { Envelope, TestApp } from './harness';

/** Multipart uploads for the integration tests (uploads and identity verification). */

/** Bytes that start like a JPEG (the server looks at the bytes, not at a decoder). */
export const fakeJpeg = (size = 2048) => {
  const body = randomBytes(size);
  body.set([0xff, 0xd8, 0xff, 0xe0], 0);
  body.set([0xff, 0xd9], size - 2);
  return body;
};

export const pngBytes = () => {
  const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return Buffer.concat([head, randomBytes(200)]);
};

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body, built by hand so the test controls every header. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----tw${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(
  t: TestApp,
  token: string | undefined,
  data: Buffer | string,
  options: { filename?: string; type?: string; name?: string; lang?: string } = {},
): Promise<{ status: number; body: Envelope }> {
  const { body, contentType } = multipart([
    {
      name: options.name ?? 'file',
      filename: options.filename ?? 'photo.jpg',
      type: options.type ?? 'image/jpeg',
      data,
    },
  ]);
  const headers: Record<string, string> = { 'content-type': contentType, lang: options.lang ?? 'en' };
  if (token !== undefined) headers.authorization = token;
  const response = await t.app.inject({ method: 'POST', url: '/api/upload/image', headers, payload: body });
  return { status: response.statusCode, body: response.json<Envelope>() };
}

export async function uploadedId(t: TestApp, token: string, data: Buffer = fakeJpeg()): Promise<number> {
  const r = await upload(t, token, data);
  if (r.body.type !== 'ok') throw new Error(`upload failed: ${r.body.message}`);
  return (r.body.data as { id: number }).id;
}
