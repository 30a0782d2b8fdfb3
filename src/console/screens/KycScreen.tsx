import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { OPS_KYC_PHOTO_PATH, type OpsVerification } from '../../../protocol/ops-console';
import { opsCall, opsQuery } from '../api';
import { Decision, Facts, formatTime, ListState, ReviewImage, ScreenHead } from '../parts';

const QUERY_KEY = ['ops', 'kyc'] as const;

/** Identity verifications under review, unmasked, with their photos; approve, or reject with a reason. */
export function KycScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => opsQuery('ops/kyc', {}, signal).then((d) => d.items),
  });
  return (
    <>
      <ScreenHead
        title={t('console.nav.kyc')}
        intro={t('console.kyc.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      <ListState query={query} empty={t('console.kyc.empty')}>
        {(items) => (
          <ul className="ops-cards">
            {items.map((v) => (
              <VerificationCard key={v.id} verification={v} />
            ))}
          </ul>
        )}
      </ListState>
    </>
  );
}

function VerificationCard({ verification: v }: { verification: OpsVerification }): ReactElement {
  const { t } = useTranslation();
  const what = t('console.kyc.item', { id: v.id });
  const level = t(v.level === 'basic' ? 'console.kyc.basic' : 'console.kyc.advanced');
  return (
    <li className="ops-card">
      <header className="ops-card-head">
        <h2 className="ops-card-title">{what}</h2>
        <span className="badge">{level}</span>
      </header>
      <Facts
        items={[
          [t('console.common.user'), `${v.username} (#${v.user_id})`],
          ...(v.name !== null
            ? ([
                [t('console.kyc.name'), v.name ?? ''],
                [t('console.kyc.country'), v.country ?? ''],
                [t('console.kyc.idNumber'), <code key="id">{v.id_number}</code>],
                [t('console.kyc.address'), v.address ?? ''],
              ] as const)
            : []),
          [t('console.common.submitted'), formatTime(v.created_at)],
        ]}
      />
      {v.photos.length > 0 ? (
        <div className="ops-photos">
          {v.photos.map((side) => (
            <figure key={side} className="ops-photo">
              <ReviewImage
                path={OPS_KYC_PHOTO_PATH}
                search={{ id: String(v.id), side }}
                alt={t(`console.kyc.photo.${side}`)}
              />
              <figcaption>{t(`console.kyc.photo.${side}`)}</figcaption>
            </figure>
          ))}
        </div>
      ) : null}
      <Decision
        what={what}
        confirm={t('console.kyc.approveConfirm', { level, user: v.username })}
        approve={() => opsCall('ops/kyc/approve', { id: String(v.id) })}
        reject={(reason) => opsCall('ops/kyc/reject', { id: String(v.id), reason })}
        queryKey={QUERY_KEY}
      />
    </li>
  );
}
