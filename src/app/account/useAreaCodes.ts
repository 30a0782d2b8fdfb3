import { useEffect, useState } from 'react';
import type { AreaCode } from '../../../protocol/account';
import { fetchAreaCodes } from '../../api/account';

/** The calling codes, and a default country from the language-mark's region (de-DE → DE). */
export function useAreaCodes(langMark: string): { codes: AreaCode[]; defaultIso: string } {
  const [codes, setCodes] = useState<AreaCode[]>([]);
  useEffect(() => {
    let alive = true;
    void fetchAreaCodes().then((r) => {
      if (alive && r) setCodes(r);
    });
    return () => {
      alive = false;
    };
  }, []);
  const region = langMark.split('-')[1]?.toUpperCase() ?? '';
  const defaultIso = codes.find((c) => c.iso === region)?.iso ?? codes[0]?.iso ?? '';
  return { codes, defaultIso };
}
