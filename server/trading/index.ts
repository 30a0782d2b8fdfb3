/** The public surface of the trading engine: other code imports it only through this file. */
export * from './engine-loop';
export * from './entry-waits';
export * from './practice';
export * from './recorded-ticks';
export * from './submit';
export * from './tick-window';
export * from './trigger-book';
