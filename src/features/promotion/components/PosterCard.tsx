import { type ReactElement, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Poster } from '../../../../protocol/referral';
import { Button } from '../../../components/Button';
import { toast } from '../../../state/toasts';
import { useShareInfo } from '../hooks/queries';
import { downloadBlob, drawPoster, POSTER_HEIGHT, POSTER_WIDTH, posterPng } from '../poster';
import { inviteLink } from './InviteCard';

/** Whether this browser can share (the Web Share API): phones mostly, desktops partly. */
const canShare = (): boolean => typeof globalThis.navigator?.share === 'function';

/**
 * The invite poster (user/my_poster): the QR code of the invite link, the code, the caller's masked name and the app
 * name, drawn on a canvas. "Save poster" downloads it as a PNG; "Share" hands the link to the device's share sheet
 * where the browser has one (user/my_share).
 */
export function PosterCard({ poster }: { poster: Poster }): ReactElement {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [saving, setSaving] = useState(false);
  const shareable = canShare();
  const share = useShareInfo(shareable).data;
  const link = inviteLink(poster.link_path);
  const appName = t('brand');

  const headline = t('promotion.poster.headline');
  const subline = t('promotion.poster.subline');
  const codeLabel = t('promotion.invite.code');
  const invitedBy = t('promotion.poster.invitedBy', { name: poster.display_name });
  const code = poster.invite_code;
  useEffect(() => {
    if (canvas.current)
      setDrawn(drawPoster(canvas.current, { appName, headline, subline, codeLabel, code, invitedBy, link }));
  }, [appName, headline, subline, codeLabel, code, invitedBy, link]);

  const save = async () => {
    const el = canvas.current;
    setSaving(true);
    const png = el && drawn ? await posterPng(el) : null;
    setSaving(false);
    if (!png) {
      toast(t('promotion.poster.notSaved'), 'error');
      return;
    }
    try {
      downloadBlob(png, `${appName.toLowerCase()}-invite-${poster.invite_code}.png`);
      toast(t('promotion.poster.saved'), 'success');
    } catch {
      toast(t('promotion.poster.notSaved'), 'error');
    }
  };

  const shareLink = async () => {
    try {
      await navigator.share({
        title: appName,
        text: t('promotion.poster.shareText', { app: appName, code: share?.invite_code ?? code }),
        url: inviteLink(share?.link_path ?? poster.link_path),
      });
    } catch (err) {
      // Closing the share sheet is the user's choice, not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError'))
        toast(t('promotion.poster.shareFailed'), 'error');
    }
  };

  return (
    <section className="card promo-poster" aria-labelledby="promo-poster-title">
      <h2 id="promo-poster-title" className="promo-section-title">
        {t('promotion.poster.title')}
      </h2>
      <canvas
        ref={canvas}
        className="promo-poster-canvas"
        width={POSTER_WIDTH}
        height={POSTER_HEIGHT}
        role="img"
        aria-label={t('promotion.poster.label', { code: poster.invite_code })}
        data-testid="promo-poster"
      />
      <div className="btn-row">
        <Button variant="primary" busy={saving} onClick={() => void save()} data-testid="promo-save">
          {t('promotion.poster.save')}
        </Button>
        {shareable ? (
          <Button variant="secondary" onClick={() => void shareLink()} data-testid="promo-share-btn">
            {t('promotion.poster.share')}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
