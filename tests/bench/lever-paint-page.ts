import { INSTRUMENTS, type Instrument } from '../../server/market/instruments';
import { MarketSimulator, type PriceSource, type TickListener } from '../../server/market/simulator';

/**
 * Helpers of the lever paint benchmark (lever-paint.bench.ts): the market it runs under, and a probe of the
 * position rows added to paint-page.ts's PROBE_SCRIPT.
 */

/** The 12 coins lever offers (server/domains/lever/terms.ts DEFAULT_INSTRUMENTS). */
export const LEVER_COINS = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'ADA', 'DOGE', 'TRX', 'LTC', 'DOT', 'LINK', 'AVAX'];

/**
 * The lever coins, each its own seeded simulator on a step grid shifted by k × stepMs / 12, all driven by one timer
 * every stepMs / 12 (paint.bench.ts's StaggeredCoins over the lever coins): 12 coins / 60 ms = 200 mark updates a
 * second, evenly spread. The other coins (the stablecoins) tick once a second on the same timer, so every coin has a
 * price as in the product.
 */
export class StaggeredLeverCoins implements PriceSource {
  readonly instruments: readonly Instrument[] = INSTRUMENTS.filter((i) => i.kind === 'coin');
  private readonly simulators: MarketSimulator[];
  private readonly others: MarketSimulator;
  private readonly shiftMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(stepMs: number, backfillDays = 1) {
    const options = { seed: 'bench-lever-paint', backfillDays, alwaysOpen: true };
    const lever = this.instruments.filter((i) => LEVER_COINS.includes(i.symbol));
    this.simulators = lever.map((i) => new MarketSimulator({ ...options, stepMs, instruments: [i] }));
    this.others = new MarketSimulator({
      ...options,
      stepMs: 1000,
      instruments: this.instruments.filter((i) => !LEVER_COINS.includes(i.symbol)),
    });
    this.shiftMs = stepMs / this.simulators.length;
  }

  private get all(): MarketSimulator[] {
    return [...this.simulators, this.others];
  }

  subscribe(listener: TickListener, symbol?: string): () => void {
    const offs = this.all.map((s) => s.subscribe(listener, symbol));
    return () => {
      for (const off of offs) off();
    };
  }

  backfill(onTick: TickListener): void {
    for (const s of this.all) s.backfill(onTick);
  }

  start(): void {
    this.timer ??= setInterval(() => {
      const now = Date.now();
      this.simulators.forEach((s, k) => {
        s.advanceTo(now - k * this.shiftMs);
      });
      this.others.advanceTo(now);
    }, this.shiftMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** What LEVER_PROBE_SCRIPT counts (`window.__lever`). */
export interface LeverProbe {
  /** DOM mutations inside position rows, and animation frames in which at least one happened. */
  rowTexts: number;
  rowFrames: number;
  /** React commits, and components (function, memo, forwardRef, class) that rendered in them. */
  commits: number;
  renders: number;
}

/**
 * Init script beside PROBE_SCRIPT: counts changes inside the position rows (`li[data-testid^="position-"]`: mark,
 * P&L, ROE, …) and the frames that had any; and React's renders, through the hook React DevTools uses (React calls
 * it on every commit, production builds included): a component rendered in a commit when its fiber did work
 * (PerformedWork, flag 1); a subtree whose child list is the one it had is untouched and not walked. Names are
 * minified in the build, so the count is of all components: the page with positions against the same page
 * without, in the same run. Plain script text, as PROBE_SCRIPT (see there).
 */
export const LEVER_PROBE_SCRIPT = `(() => {
  const probe = { rowTexts: 0, rowFrames: 0, commits: 0, renders: 0 };
  window.__lever = probe;
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const rendered = (fiber) => {
    let n = 0;
    const stack = [fiber];
    while (stack.length > 0) {
      const next = stack.pop();
      if (COMPONENT_TAGS.has(next.tag) && (next.flags & 1) === 1) n++;
      const prev = next.alternate;
      if (prev && prev.child === next.child) continue;
      for (let child = next.child; child; child = child.sibling) stack.push(child);
    }
    return n;
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      const id = this.renderers.size + 1;
      this.renderers.set(id, renderer);
      return id;
    },
    checkDCE() {},
    onCommitFiberRoot(_id, root) {
      probe.commits++;
      probe.renders += rendered(root.current);
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onScheduleFiberRoot() {},
  };
  let frame = 0;
  let counted = -1;
  const tick = () => {
    frame++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new MutationObserver((records) => {
    let changed = false;
    for (const record of records) {
      const node = record.target;
      const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
      if (element && element.closest('li[data-testid^="position-"]')) {
        probe.rowTexts++;
        changed = true;
      }
    }
    if (changed && counted !== frame) {
      counted = frame;
      probe.rowFrames++;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
`;

/** Reads LEVER_PROBE_SCRIPT's counters (in the page). */
export function readLeverProbe(): LeverProbe {
  const probe = (window as unknown as { __lever?: LeverProbe }).__lever;
  return {
    rowTexts: probe?.rowTexts ?? 0,
    rowFrames: probe?.rowFrames ?? 0,
    commits: probe?.commits ?? 0,
    renders: probe?.renders ?? 0,
  };
}

/** Open position rows on the page (in the page). */
export function positionRows(): number {
  return document.querySelectorAll('li[data-testid^="position-"]').length;
}
