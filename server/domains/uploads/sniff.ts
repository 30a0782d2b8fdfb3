import type { UploadMime } from '../../../protocol/identity';

export interface SniffedImage {
  mime: UploadMime;
  ext: 'jpg' | 'png' | 'webp';
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * What image a file really is, from its first bytes (never its name or the type the browser claimed): JPEG
 * (SOI marker FF D8 FF), PNG (8-byte signature followed by the IHDR chunk) or WebP (a RIFF container of type
 * WEBP). Anything else, including a renamed text or PDF file, is no image: null.
 */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length > 4) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, PNG_SIGNATURE) && startsWith(bytes, ascii('IHDR'), 12))
    return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8) && bytes.length > 12) {
    return { mime: 'image/webp', ext: 'webp' };
  }
  return null;
}
