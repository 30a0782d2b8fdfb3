import { readdirSync, readFileSync } from 'node:fs';

/**
 * The app's own texts, so the tests find elements by what a user reads, in either language: the shell's table and
 * every feature's (src/lib/i18n.ts), merged as the app looks keys up (each key is in one of them).
 */
type Table = { [key: string]: string | Table };
const load = (lang: string): Table => {
  const dir = new URL(`../../locales/${lang}/`, import.meta.url);
  const names = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'errors.json');
  return Object.assign({}, ...names.map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Table));
};
const tables: Record<string, Table> = { de: load('de'), en: load('en') };

/** `text('de', 'form.email')` → the German label; interpolation placeholders are left out. */
export function text(lang: 'de' | 'en', key: string): string {
  let node: string | Table | undefined = tables[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`);
  return node;
}
