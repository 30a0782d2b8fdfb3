import { type ReactElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button';

/**
 * The end of an endless list: loads the next page by itself when it scrolls into view, and is a button for
 * anyone who prefers to ask (or a browser without IntersectionObserver). Says so when there is nothing more.
 */
export function LoadMore({
  hasMore,
  busy,
  onMore,
}: {
  hasMore: boolean;
  busy: boolean;
  onMore: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const el = ref.current;
    if (!el || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore]);
  return (
    <div className="load-more" ref={ref}>
      {hasMore ? (
        <Button variant="ghost" busy={busy} onClick={onMore}>
          {t('assets.loadMore')}
        </Button>
      ) : (
        <p className="muted">{t('assets.noMore')}</p>
      )}
    </div>
  );
}
