import { type ChangeEvent, type FormEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { precheckImage, uploadImage, uploadPercent } from '../../../../core/api/upload';
import { CHAT_TEXT_MAX } from '../../../../protocol/chat';
import { Icon } from '../../../components/Icon';
import { errorText } from '../../../lib/i18n';
import { toast } from '../../../state/toasts';

/**
 * Writing: a text box that grows with the text (up to a few lines), send, and a photo (camera or gallery) that goes up
 * first as an upload with its progress shown, then into the conversation. `autoFocus`: the text box takes the focus
 * when the composer first shows (a page opened to write: the keyboard comes up without another tap).
 */
export function Composer({
  onText,
  onImage,
  autoFocus = false,
}: {
  onText: (text: string) => void;
  onImage: (uploadId: number) => void;
  autoFocus?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // Once, when it first shows: a later change of the flag must not pull the focus away from where the user is.
  const focusOnShow = useRef(autoFocus);
  useEffect(() => {
    if (focusOnShow.current) box.current?.focus({ preventScroll: true });
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    onText(trimmed);
    setText('');
    if (box.current) box.current.style.height = '';
    box.current?.focus();
  };

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = precheckImage(file);
    if (problem) return toast(errorText(problem), 'error');
    setProgress(0);
    const task = uploadImage(file, (fraction) => setProgress(uploadPercent(fraction)), file.name);
    const result = await task.result;
    setProgress(null);
    if (result.ok) onImage(result.data.id);
    else if (!result.aborted) toast(result.message, 'error');
  };

  return (
    <form className="chat-composer bottom-action" onSubmit={submit}>
      {progress !== null && (
        <p className="chat-upload" role="status">
          {t('chat.composer.uploading', { percent: progress })}
        </p>
      )}
      <button
        type="button"
        className="icon-btn"
        aria-label={t('chat.composer.image')}
        onClick={() => picker.current?.click()}
        disabled={progress !== null}
      >
        <Icon name="plus" />
      </button>
      <input ref={picker} type="file" accept="image/*" hidden onChange={(e) => void pick(e)} />
      <textarea
        ref={box}
        className="chat-input"
        rows={1}
        value={text}
        maxLength={CHAT_TEXT_MAX}
        placeholder={t('chat.composer.placeholder')}
        aria-label={t('chat.composer.placeholder')}
        onChange={(e) => {
          setText(e.target.value);
          // Grow with the text, up to about five lines; then it scrolls.
          e.target.style.height = 'auto';
          e.target.style.height = `${Math.min(e.target.scrollHeight, 120)}px`;
        }}
      />
      <button type="submit" className="chat-send" disabled={text.trim() === ''}>
        {t('chat.composer.send')}
      </button>
    </form>
  );
}
