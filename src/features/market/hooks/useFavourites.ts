import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { fetchFavourites, setFavourite } from '../../../../core/api/market';
import { keys } from '../../../data/keys';
import { need } from '../../../data/query';
import { isLoggedIn, session } from '../../../state/session';

const NONE: ReadonlySet<string> = new Set();

/** The user's favourite symbols (empty for guests) and a toggle that the server confirms. */
export function useFavourites(): {
  favourites: ReadonlySet<string>;
  loggedIn: boolean;
  toggle(symbol: string, on: boolean): void;
} {
  const snap = useSnapshot(session);
  const loggedIn = isLoggedIn(snap);
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: keys.favourites,
    queryFn: () => need(fetchFavourites()),
    enabled: loggedIn,
  });
  const { mutate } = useMutation({
    mutationFn: ({ symbol, on }: { symbol: string; on: boolean }) => setFavourite(symbol, on),
    // The server answers with the whole list: that is what is shown.
    onSuccess: (list) => {
      if (list) client.setQueryData(keys.favourites, list);
    },
  });
  const toggle = useCallback((symbol: string, on: boolean) => mutate({ symbol, on }), [mutate]);
  const favourites = useMemo(() => (loggedIn && data ? new Set(data) : NONE), [loggedIn, data]);
  return { favourites, loggedIn, toggle };
}
