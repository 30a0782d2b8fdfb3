/** Texts operators publish per language (help articles, news): checks, fallback, search folding, CLI and console. */
export * from './cli';
export * from './console';
export * from './store';
export * from './tables';
export * from './texts';
