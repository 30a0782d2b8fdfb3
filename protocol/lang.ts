/** Interface languages. The first two are offered on the language page (SPEC 1, 9); the rest have complete tables. */
export const OFFERED_LANGS = ['de', 'en'] as const;
export const ALL_LANGS = ['de', 'en', 'ja', 'ko', 'es', 'th', 'zh'] as const;
export type Lang = (typeof ALL_LANGS)[number];
export const DEFAULT_LANG: Lang = 'de';

export const isLang = (v: unknown): v is Lang => typeof v === 'string' && (ALL_LANGS as readonly string[]).includes(v);
