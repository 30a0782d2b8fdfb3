import { type ChangeEvent, type ReactElement, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/i18n';
import { Button } from '../Button';
import { Dialog } from '../Dialog';
import { Icon } from '../Icon';

export type UploadPhase =
  | { kind: 'empty' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'failed'; message: string; retryable: boolean }
  | { kind: 'done' };

/** What the field shows and what its buttons do (src/data/upload/useImageUpload.ts makes it). */
export interface ImageUploadState {
  phase: UploadPhase;
  /** An object URL of the stored image, once fetched. */
  preview: string | null;
  previewFailed: boolean;
  /** A failed upload that the same file may fix. */
  canRetry: boolean;
  confirming: boolean;
  removing: boolean;
  pick: (file: File) => void;
  retry: () => void;
  cancel: () => void;
  retryPreview: () => void;
  askRemove: () => void;
  closeConfirm: () => void;
  remove: () => void;
}

export interface ImageUploadProps {
  label: string;
  hint?: string;
  /** The upload's id once stored; null while there is none. */
  value: number | null;
  /** A message from the form (already translated), e.g. "please upload the front". */
  error?: string | undefined;
  disabled?: boolean;
  upload: ImageUploadState;
}

/**
 * One photo of a form (SPEC 5 "Upload"): take it with the camera or pick it from the gallery, a progress bar while it
 * goes up, retry after a failure, a preview of what the server stored, and removal after a confirmation.
 */
export function ImageUpload({ label, hint, value, error, disabled = false, upload }: ImageUploadProps): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const cameraRef = useRef<HTMLInputElement>(null);
  const galleryRef = useRef<HTMLInputElement>(null);
  const { phase, preview, previewFailed, confirming, removing, closeConfirm } = upload;

  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) upload.pick(file);
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
              <button type="button" className="upload-note" onClick={upload.retryPreview}>
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
                onClick={upload.askRemove}
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
            <Button variant="ghost" className="btn-small" onClick={upload.cancel}>
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
            {upload.canRetry ? (
              <Button variant="primary" className="btn-small" onClick={upload.retry}>
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
            <Button variant="danger" busy={removing} onClick={upload.remove}>
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
