import * as Comlink from 'comlink';
import { positionsApi } from './positions-compute';

/**
 * The positions worker (DESIGN "workers/"): the lever P&L, margin ratio and liquidation math of every open position
 * runs here, off the main thread, so that a burst of marks never costs the page a frame. Only the API's functions
 * are exposed (not the state behind them); everything crossing is decimal text or a numeric id.
 */
Comlink.expose(positionsApi());
