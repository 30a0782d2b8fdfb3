import { describe, expect, it } from 'vitest';
import { sniffImage } from './sniff';

const bytes = (...parts: Array<number[] | string>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffImage', () => {
  it('knows JPEG, PNG and WebP by their first bytes', () => {
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(sniffImage(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR', [0, 0, 0, 1]))).toEqual({
      mime: 'image/png',
      ext: 'png',
    });
    expect(sniffImage(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toEqual({ mime: 'image/webp', ext: 'webp' });
  });

  it('refuses everything else, whatever it is called', () => {
    expect(sniffImage(bytes('%PDF-1.7 not an image'))).toBeNull();
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(bytes('GIF89a', [1, 0, 1, 0]))).toBeNull();
    expect(sniffImage(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBeNull();
    // A PNG signature without its header chunk, and truncated magic numbers.
    expect(sniffImage(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(sniffImage(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});
