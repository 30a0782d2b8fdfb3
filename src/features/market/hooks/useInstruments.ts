import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchInstruments } from '../../../../core/api/market';
import type { InstrumentInfo } from '../../../../protocol/market';
import { keys } from '../../../data/keys';
import { need } from '../../../data/query';

/** Instrument facts (name, quote currency, scales) by symbol; fetched once per page life, empty until loaded. */
export function useInstruments(): ReadonlyMap<string, InstrumentInfo> {
  const { data } = useQuery({
    queryKey: keys.instruments,
    queryFn: () => need(fetchInstruments()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return useMemo(() => new Map((data ?? []).map((i) => [i.symbol, i])), [data]);
}
