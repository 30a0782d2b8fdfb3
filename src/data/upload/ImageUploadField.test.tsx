import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactElement, useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../protocol/identity';
import { precheckImage } from '../../../core/api/upload';
import { connectApi } from '../../app/api-wiring';
import { i18n, startI18n } from '../../lib/i18n';
import { ImageUploadField } from './ImageUploadField';

/** An XMLHttpRequest stand-in: the test decides when and how each upload ends. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  timeout = 0;
  responseText = '';
  headers: Record<string, string> = {};
  url = '';
  body: unknown;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(body: unknown) {
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const jpegFile = (size = 1000) => new File([new Uint8Array(size)], 'photo.jpg', { type: 'image/jpeg' });

let changes: Array<number | null> = [];
function Demo(): ReactElement {
  const [value, setValue] = useState<number | null>(null);
  return (
    <ImageUploadField
      label="Front"
      value={value}
      onChange={(id) => {
        changes.push(id);
        setValue(id);
      }}
    />
  );
}

const pick = (file: File) => {
  const input = document.querySelector('input[data-upload="gallery"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
};

beforeAll(async () => {
  connectApi();
  await startI18n('en');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  FakeXhr.sent = [];
  changes = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string) => {
      const url = typeof input === 'string' ? input : input.url;
      if (url.includes('/api/upload/file')) {
        return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), { headers: { 'content-type': 'image/jpeg' } });
      }
      return new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data: {} }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('precheckImage', () => {
  it('refuses files over the limit and types that are no supported image, before sending', () => {
    expect(precheckImage({ size: MAX_UPLOAD_BYTES, type: 'image/png' })).toBeNull();
    expect(precheckImage({ size: MAX_UPLOAD_BYTES + 1, type: 'image/png' })).toBe('fileTooLarge');
    expect(precheckImage({ size: 10, type: 'application/pdf' })).toBe('notAnImage');
    expect(precheckImage({ size: 10, type: 'image/gif' })).toBe('notAnImage');
    // No type from the browser: the server reads the bytes.
    expect(precheckImage({ size: 10, type: '' })).toBeNull();
  });
});

describe('ImageUpload', () => {
  it('shows the size message without sending a too-big file', async () => {
    render(<Demo />);
    pick(jpegFile(MAX_UPLOAD_BYTES + 1));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Out of allowable file size – an image may be at most 5\u00a0MB',
    );
    expect(FakeXhr.sent).toHaveLength(0);
    // A refused file is not offered again.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('uploads with progress, previews what the server stored, and removes it after a confirmation', async () => {
    render(<Demo />);
    pick(jpegFile());
    const xhr = FakeXhr.sent[0];
    if (!xhr) throw new Error('nothing sent');
    expect(xhr.url).toMatch(/\/api\/upload\/image$/);
    expect(xhr.headers).toHaveProperty('lang', 'de');
    expect(xhr.body).toBeInstanceOf(FormData);
    act(() => xhr.progress(40, 100));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('Uploading… 40 %')).toBeTruthy();
    act(() => xhr.answer({ type: 'ok', code: 1, message: 'OK', data: { id: 7, size: 1000, mime: 'image/jpeg' } }));
    await waitFor(() => expect(changes).toEqual([7]));
    const img = await screen.findByRole('img', { name: 'Preview: Front' });
    expect(img.getAttribute('src')).toBe('blob:preview');

    fireEvent.click(screen.getByRole('button', { name: 'Remove photo: Front' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this photo?' });
    expect(changes).toEqual([7]);
    fireEvent.click(dialog.querySelector('.btn-danger') as Element);
    await waitFor(() => expect(changes).toEqual([7, null]));
    expect(screen.getByRole('button', { name: 'Choose image' })).toBeTruthy();
  });

  it('offers a retry after a network failure and sends the same file again', async () => {
    render(<Demo />);
    pick(jpegFile());
    act(() => FakeXhr.sent[0]?.onerror?.());
    expect((await screen.findByRole('alert')).textContent).toBe('Upload failed – please retry');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(FakeXhr.sent).toHaveLength(2);
    act(() =>
      FakeXhr.sent[1]?.answer({ type: 'ok', code: 1, message: 'OK', data: { id: 9, size: 1000, mime: 'image/jpeg' } }),
    );
    await waitFor(() => expect(changes).toEqual([9]));
  });

  it("shows the server's refusal of a fake image in place, without a retry", async () => {
    render(<Demo />);
    pick(jpegFile());
    act(() =>
      FakeXhr.sent[0]?.answer({
        type: 'error',
        code: 0,
        message: 'Only JPEG, PNG or WebP images can be uploaded',
        field: 'file',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Only JPEG, PNG or WebP images can be uploaded');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(changes).toEqual([]);
  });
});
