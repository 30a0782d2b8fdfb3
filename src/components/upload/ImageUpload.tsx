import { type ChangeEvent, type ReactElement, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUpload, fetchUpload, precheckImage, type UploadTask, uploadImage } from '../../api/upload';
import { errorText } from '../../lib/i18n';
import { toast } from '../../state/toasts';
import { Button } from '../Button';
import { Dialog } from '../Dialog';
import { Icon } from '../Icon';

type Phase =
  | { kind: 'empty' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'failed'; message: string; retryable: boolean }
  | { kind: 'done' };

/**
 * One photo of a form (SPEC 5 "Upload"): take it with the camera or pick it from the gallery, a size check before
 * sending, a progress bar while it goes up, retry after a failure, a preview of what the server stored, and removal
 * after a confirmation. The form keeps only the upload's id (`value`).
 */
export function ImageUpload({
  label,
  hint,
  value,
  onChange,
  error,
  disabled = false,
}: {
  label: string;
  hint?: string;
  /** The upload's id once stored; null while there is none. */
  value: number | null;
  onChange: (id: number | null) => void;
  /** A message from the form (already translated), e.g. "please upload the front". */
  error?: string | undefined;
  disabled?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const cameraRef = useRef<HTMLInputElement>(null);
  const galleryRef = useRef<HTMLInputElement>(null);
  const task = useRef<UploadTask | null>(null);
  const lastFile = useRef<File | null>(null);
  const [phase, setPhase] = useState<Phase>(value === null ? { kind: 'empty' } : { kind: 'done' });
  const [preview, setPreview] = useState<string | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  // Stable, so the open dialog does not pull the focus back on every render.
  const closeConfirm = useCallback(() => setConfirming(false), []);

  // Cancel an upload still running when the page goes.
  useEffect(() => () => task.current?.abort(), []);

  // The preview is what the server stored, fetched with the session (an <img src> could not send it).
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
        (fraction) => setPhase({ kind: 'uploading', percent: Math.floor(fraction * 100) }),
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

  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) void send(file);
  };

  const remove = async () => {
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
  };

  const shownError = phase.kind === 'failed' ? phase.message : error;
  const msgId = `${id}-msg`;
  return (
    <fieldset
      className={`upload${shownError ? ' has-error' : ''}`}
      aria-describedby={shownError || hint ? msgId : undefined}
      data-upload-id={value ?? undefined}
    >
      <legend className="field-label">{label}</legend>
      <div className="upload-box">
        {phase.kind === 'done' && value !== null ? (
          <div className="upload-preview">
            {preview ? (
              <img src={preview} alt={t('upload.previewAlt', { label })} />
            ) : previewFailed ? (
              <button type="button" className="upload-note" onClick={() => setPreviewTry((n) => n + 1)}>
                <Icon name="alert" size={20} />
                <span>{errorText('previewFailed')}</span>
              </button>
            ) : (
              <span className="spinner" aria-hidden="true" />
            )}
            <span className="upload-done badge badge-ok">
              <Icon name="check" size={14} />
              {t('upload.uploaded')}
            </span>
            {disabled ? null : (
              <button
                type="button"
                className="upload-remove"
                onClick={() => setConfirming(true)}
                aria-label={t('upload.remove', { label })}
              >
                <Icon name="trash" size={18} />
              </button>
            )}
          </div>
        ) : phase.kind === 'uploading' ? (
          <div className="upload-progress">
            <span className="upload-percent">{t('upload.uploading', { percent: phase.percent })}</span>
            <div
              className="progress"
              role="progressbar"
              aria-label={t('upload.progress', { label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={phase.percent}
            >
              <div className="progress-fill" style={{ width: `${phase.percent}%` }} />
            </div>
            <Button variant="ghost" className="btn-small" onClick={() => task.current?.abort()}>
              {t('common.cancel')}
            </Button>
          </div>
        ) : (
          <div className="upload-pick">
            <Icon name="document" size={28} className="upload-icon" />
            <div className="upload-actions">
              <Button
                variant="secondary"
                className="btn-small"
                disabled={disabled}
                onClick={() => cameraRef.current?.click()}
              >
                {t('upload.takePhoto')}
              </Button>
              <Button
                variant="ghost"
                className="btn-small"
                disabled={disabled}
                onClick={() => galleryRef.current?.click()}
              >
                {t('upload.choose')}
              </Button>
            </div>
            {phase.kind === 'failed' && phase.retryable && lastFile.current ? (
              <Button
                variant="primary"
                className="btn-small"
                onClick={() => {
                  if (lastFile.current) void send(lastFile.current);
                }}
              >
                {t('upload.retry')}
              </Button>
            ) : null}
          </div>
        )}
        <input
          ref={cameraRef}
          type="file"
          accept="image/*"
          capture="environment"
          hidden
          onChange={picked}
          data-upload="camera"
        />
        <input ref={galleryRef} type="file" accept="image/*" hidden onChange={picked} data-upload="gallery" />
      </div>
      {shownError ? (
        <p className="field-msg field-error" id={msgId} role="alert">
          {shownError}
        </p>
      ) : hint ? (
        <p className="field-msg" id={msgId}>
          {hint}
        </p>
      ) : null}
      <Dialog
        open={confirming}
        title={t('upload.removeTitle')}
        onClose={closeConfirm}
        actions={
          <>
            <Button variant="secondary" onClick={closeConfirm}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={removing} onClick={() => void remove()}>
              {t('upload.removeConfirm')}
            </Button>
          </>
        }
      >
        <p>{t('upload.removeText')}</p>
      </Dialog>
    </fieldset>
  );
}
