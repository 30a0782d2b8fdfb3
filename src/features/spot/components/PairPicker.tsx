import { type ReactElement, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../../../protocol/market';
import type { SpotPair } from '../../../../protocol/spot';
import { Dialog } from '../../../components/Dialog';
import { Field } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { formatPrice } from '../../../lib/format';
import { Change } from '../../market/public';

/** The pair picker: search, favourites first (the market feature's list), each pair's live price and 24 h change. */
export function PairPicker({
  open,
  pairs,
  quotes,
  favourites,
  onPick,
  onClose,
}: {
  open: boolean;
  pairs: readonly SpotPair[];
  quotes: ReadonlyMap<string, Quote>;
  favourites: ReadonlySet<string>;
  onPick: (symbol: string) => void;
  onClose: () => void;
}): ReactElement | null {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = search.replace(/\s+/g, '').toUpperCase();
    return pairs
      .filter((p) => !needle || p.symbol.includes(needle))
      .sort(
        (a, b) =>
          Number(favourites.has(b.symbol)) - Number(favourites.has(a.symbol)) || a.symbol.localeCompare(b.symbol),
      );
  }, [pairs, search, favourites]);
  return (
    <Dialog open={open} title={t('spot.choosePair')} onClose={onClose} actions={null}>
      <Field label={t('spot.search')} value={search} onValue={setSearch} autoComplete="off" />
      {shown.length === 0 ? <p className="spot-empty">{t('spot.noMatch')}</p> : null}
      <ul className="spot-pairs">
        {shown.map((p) => {
          const quote = quotes.get(p.symbol);
          return (
            <li key={p.symbol}>
              <button
                type="button"
                className="spot-pair"
                onClick={() => onPick(p.symbol)}
                data-testid={`pair-${p.symbol}`}
              >
                {favourites.has(p.symbol) ? <Icon name="star" size={14} label={t('spot.favourites')} /> : null}
                <span className="spot-pair-symbol">
                  {p.symbol}/{p.quote}
                </span>
                <span className="spot-pair-last">
                  {quote ? formatPrice(quote.last, i18n.language, p.price_scale) : '–'}
                </span>
                {quote ? <Change pct={quote.change_pct} lang={i18n.language} /> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
