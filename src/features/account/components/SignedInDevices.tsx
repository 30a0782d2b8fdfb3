import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { endDevice, endOtherDevices, fetchDevices } from '../../../../core/api/devices';
import type { SignedInDevice } from '../../../../protocol/devices';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { keys } from '../../../data/keys';
import { need } from '../../../data/query';
import { formatDateTime } from '../../../lib/format';
import { settings } from '../../../state/settings';
import { toast } from '../../../state/toasts';
import './devices.css';

/**
 * The security centre's signed-in devices: each live session of the account named by its browser and system, this
 * one marked, the others each with "sign out", and "sign out all other devices". A device signed out here is signed
 * out there at once when it is open (the user's account event, src/features/account/account-notices.ts), else at its
 * next request. The list refreshes when a session ends anywhere.
 */
export function SignedInDevices(): ReactElement {
  const { t } = useTranslation();
  const { lang } = useSnapshot(settings);
  const client = useQueryClient();
  const q = useQuery({ queryKey: keys.devices, queryFn: () => need(fetchDevices()) });
  const [ending, setEnding] = useState<number | 'others' | null>(null);

  const name = (d: SignedInDevice) =>
    d.browser && d.os
      ? t('devices.device', { browser: d.browser, os: d.os })
      : (d.browser ?? d.os ?? t('devices.unknown'));

  const end = async (d: SignedInDevice) => {
    setEnding(d.id);
    const r = await endDevice({ id: String(d.id) });
    setEnding(null);
    // A refusal is toasted like every session call's; the list shows what is true now either way.
    if (r.ok) toast(t('devices.ended'), 'success');
    await client.invalidateQueries({ queryKey: keys.devices });
  };

  const endOthers = async () => {
    setEnding('others');
    const r = await endOtherDevices();
    setEnding(null);
    if (r.ok) toast(t('devices.endedOthers', { count: r.data.ended }), 'success');
    await client.invalidateQueries({ queryKey: keys.devices });
  };

  const sessions = q.data?.sessions;
  const others = sessions?.filter((d) => !d.current).length ?? 0;
  return (
    <section className="list-group devices" aria-labelledby="devices-title" aria-busy={q.isPending}>
      <h2 className="list-title" id="devices-title">
        {t('devices.title')}
      </h2>
      <p className="devices-lead">{t('devices.lead')}</p>
      {sessions ? (
        <ul className="list" data-testid="devices">
          {sessions.map((d) => (
            <li key={d.id} className="list-item device" data-current={d.current || undefined}>
              <span className="list-icon">
                <Icon name={d.mobile ? 'phone' : 'globe'} size={20} />
              </span>
              <span className="list-text">
                <span className="list-label">{name(d)}</span>
                {d.current ? (
                  <span className="list-sub">
                    <span className="badge badge-ok">{t('devices.thisDevice')}</span>
                  </span>
                ) : (
                  <span className="list-sub">
                    {t('devices.lastUsed', { date: formatDateTime(d.last_used_at, lang) })}
                  </span>
                )}
                <span className="list-sub">{t('devices.since', { date: formatDateTime(d.created_at, lang) })}</span>
              </span>
              {d.current ? null : (
                <Button
                  variant="ghost"
                  busy={ending === d.id}
                  disabled={ending !== null}
                  onClick={() => void end(d)}
                  aria-label={t('devices.endOne', { device: name(d) })}
                >
                  {t('devices.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : q.isError ? (
        <p className="devices-lead">{t('common.loadFailed')}</p>
      ) : null}
      {sessions && others === 0 ? <p className="devices-lead">{t('devices.only')}</p> : null}
      {others > 0 ? (
        <Button variant="danger" busy={ending === 'others'} disabled={ending !== null} onClick={() => void endOthers()}>
          {t('devices.endOthers')}
        </Button>
      ) : null}
    </section>
  );
}
