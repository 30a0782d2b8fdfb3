import type { Lang } from '../../../protocol/lang';
import type { TextField } from '../../../protocol/published-texts';
import type { TextInput } from './texts';

/** The texts a console save names, by language (a language with neither title nor body is left out). */
export function textsFromForm<L extends Lang>(
  input: Partial<Record<TextField<L>, string>>,
  langs: readonly L[],
): Record<string, Partial<TextInput>> {
  const texts: Record<string, Partial<TextInput>> = {};
  for (const lang of langs) {
    const title = input[`${lang}.title` as TextField<L>];
    const body = input[`${lang}.body` as TextField<L>];
    if (title === undefined && body === undefined) continue;
    texts[lang] = { ...(title === undefined ? {} : { title }), ...(body === undefined ? {} : { body }) };
  }
  return texts;
}
