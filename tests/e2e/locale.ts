import { readFileSync } from 'node:fs';

/** The app's own texts, so the tests find elements by what a user reads, in either language. */
type Table = { [key: string]: string | Table };
const load = (lang: string): Table =>
  JSON.parse(readFileSync(new URL(`../../locales/${lang}/app.json`, import.meta.url), 'utf8')) as Table;
const tables: Record<string, Table> = { de: load('de'), en: load('en') };

/** `text('de', 'form.email')` → the German label; interpolation placeholders are left out. */
export function text(lang: 'de' | 'en', key: string): string {
  let node: string | Table | undefined = tables[lang];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`);
  return node;
}
