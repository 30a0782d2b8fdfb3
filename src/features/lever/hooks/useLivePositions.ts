import { useEffect, useMemo, useState } from 'react';
import type { LeverAccount, LeverDeal, LeverPosition } from '../../../../protocol/lever';
import { leverMarks, type Mark } from '../../../../streams/lever/positions';
import { createPositionsWorker, type PositionsClient, type PositionsUpdate } from '../../../../workers/positions';
import { FigureBoard } from '../live/figureBoard';

interface Live {
  client: PositionsClient;
  board: FigureBoard;
}

/**
 * One positions worker for the page (workers/positions.ts), fed with the instruments' scales and the book's cross
 * wallet from lever/deal, the book's open positions from the positions stream and the marks of the instruments
 * from the quotes; its answers go to a FigureBoard that the rows read once per animation frame. The P&L, ROE and
 * liquidation math never runs on the main thread. Null until the worker is started (the rows show "–").
 */
export function useLivePositions(
  book: LeverAccount,
  deal: LeverDeal | undefined,
  positions: readonly LeverPosition[] | null,
): FigureBoard | null {
  const [live, setLive] = useState<Live | null>(null);

  useEffect(() => {
    const next: Live = { client: createPositionsWorker(), board: new FigureBoard(book) };
    setLive(next);
    return () => {
      next.client.dispose();
      next.board.dispose();
    };
  }, [book]);

  const apply = useMemo(() => {
    if (!live) return null;
    return (call: Promise<PositionsUpdate>) =>
      void call.then(
        (update) => live.board.apply(update),
        // A disposed worker's answers never come; anything else is logged and the next update carries on.
        (err: unknown) => console.warn('positions worker', err),
      );
  }, [live]);

  const instruments = deal?.instruments;
  const scale = deal?.scale;
  useEffect(() => {
    if (live && apply && instruments) apply(live.client.setInstruments(instruments, scale));
  }, [live, apply, instruments, scale]);

  const wallet = deal?.cross_wallet;
  useEffect(() => {
    if (live && apply && wallet !== undefined) apply(live.client.setWallets({ [book]: wallet }));
  }, [live, apply, wallet, book]);

  useEffect(() => {
    if (live && apply && positions) apply(live.client.setPositions(positions));
  }, [live, apply, positions]);

  // Every offered instrument's mark: a stable list (one subscription), and the worker only recomputes the
  // positions of the symbols whose mark moved. Marks are gathered for one animation frame and sent as one call:
  // the screen cannot show more, and each call's answer costs the main thread a structured clone.
  const symbols = useMemo(() => instruments?.map((i) => i.symbol) ?? [], [instruments]);
  useEffect(() => {
    if (!live || !apply || symbols.length === 0) return;
    const pending = new Map<string, Mark>();
    let frame: number | undefined;
    const send = () => {
      frame = undefined;
      const batch = [...pending.values()];
      pending.clear();
      if (batch.length > 0) apply(live.client.applyMarks(batch));
    };
    const sub = leverMarks(symbols).subscribe((marks) => {
      for (const mark of marks) pending.set(mark.symbol, mark);
      frame ??= requestAnimationFrame(send);
    });
    return () => {
      sub.unsubscribe();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [live, apply, symbols]);

  return live?.board ?? null;
}
