import { useEffect, useState } from 'react';
import type { InstrumentInfo } from '../../../protocol/market';
import { fetchInstruments } from '../../api/market';

/** Instrument facts (name, quote currency, scales) by symbol; empty until loaded. */
export function useInstruments(): ReadonlyMap<string, InstrumentInfo> {
  const [map, setMap] = useState<ReadonlyMap<string, InstrumentInfo>>(() => new Map());
  useEffect(() => {
    let live = true;
    void fetchInstruments().then((list) => {
      if (live && list) setMap(new Map(list.map((i) => [i.symbol, i])));
    });
    return () => {
      live = false;
    };
  }, []);
  return map;
}
