import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUpload, fetchUpload, precheckImage, type UploadTask, uploadImage, uploadPercent } from '../../../core/api/upload';
import type { ImageUploadState, UploadPhase } from '../../components/upload/ImageUpload';
import { errorText } from '../../lib/i18n';
import { toast } from '../../state/toasts';

/**
 * What one photo field of a form does (SPEC 5 "Upload"): a size check before sending, the upload with its progress,
 * retry after a failure, the preview of what the server stored (fetched with the session: an <img src> could not send
 * it), and removal. The form keeps only the upload's id (`value`); `onChange` tells it a new one or null.
 */
export function useImageUpload(value: number | null, onChange: (id: number | null) => void): ImageUploadState {
  const { t } = useTranslation();
  const task = useRef<UploadTask | null>(null);
  const lastFile = useRef<File | null>(null);
  const [phase, setPhase] = useState<UploadPhase>(value === null ? { kind: 'empty' } : { kind: 'done' });
  const [preview, setPreview] = useState<string | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  // Stable, so the open dialog does not pull the focus back on every render.
  const closeConfirm = useCallback(() => setConfirming(false), []);
  const askRemove = useCallback(() => setConfirming(true), []);

  // Cancel an upload still running when the page goes.
  useEffect(() => () => task.current?.abort(), []);

  const [previewTry, setPreviewTry] = useState(0);
  useEffect(() => {
    setPreview(null);
    setPreviewFailed(false);
    if (value === null) return;
    const abort = new AbortController();
    let url: string | null = null;
    void previewTry;
    void fetchUpload(value, abort.signal).then((blob) => {
      if (abort.signal.aborted) return;
      if (!blob) {
        setPreviewFailed(true);
        return;
      }
      url = URL.createObjectURL(blob);
      setPreview(url);
    });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [value, previewTry]);

  const send = useCallback(
    async (file: File) => {
      lastFile.current = file;
      const problem = precheckImage(file);
      if (problem) {
        setPhase({ kind: 'failed', message: errorText(problem), retryable: false });
        return;
      }
      setPhase({ kind: 'uploading', percent: 0 });
      const started = uploadImage(
        file,
        (fraction) => setPhase({ kind: 'uploading', percent: uploadPercent(fraction) }),
        file.name,
      );
      task.current = started;
      const r = await started.result;
      task.current = null;
      if (r.ok) {
        setPhase({ kind: 'done' });
        onChange(r.data.id);
      } else if (r.aborted) {
        setPhase({ kind: 'empty' });
      } else {
        setPhase({ kind: 'failed', message: r.message || errorText('uploadFailed'), retryable: r.retryable });
      }
    },
    [onChange],
  );

  const remove = useCallback(async () => {
    if (value === null) return;
    setRemoving(true);
    const r = await deleteUpload(value);
    setRemoving(false);
    setConfirming(false);
    if (!r.ok) return;
    toast(t('upload.removed'), 'success');
    lastFile.current = null;
    setPhase({ kind: 'empty' });
    onChange(null);
  }, [value, onChange, t]);

  return {
    phase,
    preview,
    previewFailed,
    canRetry: phase.kind === 'failed' && phase.retryable && lastFile.current !== null,
    confirming,
    removing,
    pick: (file) => void send(file),
    retry: () => {
      if (lastFile.current) void send(lastFile.current);
    },
    cancel: () => task.current?.abort(),
    retryPreview: () => setPreviewTry((n) => n + 1),
    askRemove,
    closeConfirm,
    remove: () => void remove(),
  };
}
