import { useQuery } from '@tanstack/react-query';
import type { AreaCode } from '../../protocol/account';
import { fetchAreaCodes } from '../../core/api/account';
import { keys } from './keys';
import { need } from './query';

const NONE: readonly AreaCode[] = [];

/** The country calling codes, fetched once per page life (again after "clear cache" or a failure); empty until then. */
export function useAreaCodeList(): readonly AreaCode[] {
  const q = useQuery({
    queryKey: keys.areaCodes,
    queryFn: () => need(fetchAreaCodes()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return q.data ?? NONE;
}

/** The calling codes, and a default country from the language-mark's region (de-DE → DE). */
export function useAreaCodes(langMark: string): { codes: readonly AreaCode[]; defaultIso: string } {
  const codes = useAreaCodeList();
  const region = langMark.split('-')[1]?.toUpperCase() ?? '';
  const defaultIso = codes.find((c) => c.iso === region)?.iso ?? codes[0]?.iso ?? '';
  return { codes, defaultIso };
}
