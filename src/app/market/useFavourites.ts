import { useCallback, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { fetchFavourites, setFavourite } from '../../api/market';
import { isLoggedIn, session } from '../../state/session';

/** The user's favourite symbols (empty for guests) and a toggle that the server confirms. */
export function useFavourites(): {
  favourites: ReadonlySet<string>;
  loggedIn: boolean;
  toggle(symbol: string, on: boolean): void;
} {
  const snap = useSnapshot(session);
  const loggedIn = isLoggedIn(snap);
  const [favourites, setFavourites] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (!loggedIn) {
      setFavourites(new Set());
      return;
    }
    let live = true;
    void fetchFavourites().then((list) => {
      if (live && list) setFavourites(new Set(list));
    });
    return () => {
      live = false;
    };
  }, [loggedIn]);
  const toggle = useCallback((symbol: string, on: boolean) => {
    void setFavourite(symbol, on).then((list) => {
      if (list) setFavourites(new Set(list));
    });
  }, []);
  return { favourites, loggedIn, toggle };
}
