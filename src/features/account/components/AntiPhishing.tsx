import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearAntiPhishing, fetchAntiPhishing, setAntiPhishing } from '../../../../core/api/anti-phishing';
import { ANTI_PHISHING_MAX } from '../../../../protocol/anti-phishing';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { keys } from '../../../data/keys';
import { need } from '../../../data/query';
import { toast } from '../../../state/toasts';
import './devices.css';

/**
 * The security centre's anti-phishing code: a phrase of the user's choosing that every e-mail from the platform starts
 * with, so one without it is forged. Shows the phrase when set, lets the user set a new one or remove it; the server
 * checks the phrase (protocol/anti-phishing.ts) and its refusal shows under the field.
 */
export function AntiPhishing(): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useQuery({ queryKey: keys.antiPhishing, queryFn: () => need(fetchAntiPhishing()) });
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<'set' | 'clear' | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy('set');
    const r = await setAntiPhishing(draft);
    setBusy(null);
    if (!r.ok) {
      if (r.field === 'code') setError(r.message);
      return;
    }
    setDraft('');
    toast(t('antiPhishing.saved'), 'success');
    client.setQueryData(keys.antiPhishing, r.data);
  };

  const clear = async () => {
    setBusy('clear');
    const r = await clearAntiPhishing();
    setBusy(null);
    if (!r.ok) return;
    toast(t('antiPhishing.removed'), 'success');
    client.setQueryData(keys.antiPhishing, { code: null });
  };

  const code = q.data?.code;
  return (
    <section className="list-group devices" aria-labelledby="anti-phishing-title" aria-busy={q.isPending}>
      <h2 className="list-title" id="anti-phishing-title">
        {t('antiPhishing.title')}
      </h2>
      <p className="devices-lead">{t('antiPhishing.lead')}</p>
      {q.data ? (
        <p className="anti-phishing-now" data-testid="anti-phishing">
          {code ? (
            <>
              {t('antiPhishing.current')} <strong>{code}</strong>
            </>
          ) : (
            t('antiPhishing.none')
          )}
        </p>
      ) : q.isError ? (
        <p className="devices-lead">{t('common.loadFailed')}</p>
      ) : null}
      <form className="form" onSubmit={save} noValidate>
        <Field
          label={code ? t('antiPhishing.newCode') : t('antiPhishing.code')}
          value={draft}
          onValue={(v) => {
            setDraft(v);
            setError(undefined);
          }}
          error={error}
          hint={t('antiPhishing.hint')}
          maxLength={ANTI_PHISHING_MAX + 10}
          autoComplete="off"
        />
        <Button type="submit" block busy={busy === 'set'} disabled={busy !== null}>
          {t('antiPhishing.save')}
        </Button>
      </form>
      {code ? (
        <Button variant="ghost" busy={busy === 'clear'} disabled={busy !== null} onClick={() => void clear()}>
          {t('antiPhishing.remove')}
        </Button>
      ) : null}
    </section>
  );
}
