import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUpload } from '../../../../core/api/upload';

/** A chat photo, fetched with the session (only the conversation's members may read it). */
export function ChatImage({ id, alt }: { id: number; alt: string }): ReactElement {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    let created: string | null = null;
    void fetchUpload(id, abort.signal).then((blob) => {
      if (abort.signal.aborted) return;
      if (!blob) return setFailed(true);
      created = URL.createObjectURL(blob);
      setUrl(created);
    });
    return () => {
      abort.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [id]);
  if (failed) return <span className="chat-image-failed">{t('chat.message.imageFailed')}</span>;
  if (!url) return <span className="chat-image-loading" role="img" aria-label={alt} />;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img className="chat-image" src={url} alt={alt} />
    </a>
  );
}
