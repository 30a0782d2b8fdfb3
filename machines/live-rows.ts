import { distinctUntilChanged, map, type Observable } from 'rxjs';

/**
 * What a live book (machines/<product>/book.machine.ts) does with a new open list: which row machines to stop (their
 * record left the list), which to tell a newer copy (a list refresh that brings the same object tells nothing), and
 * which records are new and need a machine. Pure, so every book keeps its rows the same way.
 */
export interface LiveRow<R, Ref> {
  ref: Ref;
  /** The copy last told to the row's machine. */
  record: R;
}

export interface RowChanges<R, Ref> {
  gone: Ref[];
  newer: { ref: Ref; record: R }[];
  added: R[];
}

export function rowChanges<R extends { id: number }, Ref>(
  rows: Readonly<Record<number, LiveRow<R, Ref>>>,
  open: readonly R[],
): RowChanges<R, Ref> {
  const ids = new Set(open.map((r) => r.id));
  const gone = Object.values(rows)
    .filter((row) => !ids.has(row.record.id))
    .map((row) => row.ref);
  const newer: { ref: Ref; record: R }[] = [];
  const added: R[] = [];
  for (const record of open) {
    const row = rows[record.id];
    if (!row) added.push(record);
    else if (row.record !== record) newer.push({ ref: row.ref, record });
  }
  return { gone, newer, added };
}

/** The price gate as the events every book and order machine takes: once per change of freshness. */
export function gateEvents(fresh$: Observable<boolean>): Observable<{ type: 'PRICES_FRESH' | 'PRICES_STALE' }> {
  return fresh$.pipe(
    distinctUntilChanged(),
    map((fresh) => ({ type: fresh ? ('PRICES_FRESH' as const) : ('PRICES_STALE' as const) })),
  );
}

/** The same records in the same order (each copy the same object): a list another book's change left as it was. */
export const sameRecords = <R>(a: readonly R[], b: readonly R[]): boolean =>
  a.length === b.length && a.every((record, i) => record === b[i]);
