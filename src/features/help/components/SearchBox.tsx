import { type FormEvent, type ReactElement, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_QUERY_MAX } from '../../../../protocol/help';
import { Icon } from '../../../components/Icon';

/** How long typing pauses before the search runs (Enter runs it at once). */
const TYPING_PAUSE_MS = 300;

/**
 * The help centre's search field: searches as the user pauses typing, at once on Enter, and clears with its button.
 * `value` is the search in force (from the link), `onSearch` sets a new one.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }): ReactElement {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  /** The search this field asked for last: when it arrives back as `value`, the field keeps what was typed since. */
  const sent = useRef(value);
  const search = useCallback(
    (q: string) => {
      sent.current = q;
      onSearch(q);
    },
    [onSearch],
  );
  // A search set from elsewhere (back to a link with another search) shows in the field.
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    if (text.trim() === sent.current) return;
    const timer = setTimeout(() => search(text.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, search]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    search(text.trim());
    // Closes the on-screen keyboard so the results are visible.
    input.current?.blur();
  };
  const clear = () => {
    setText('');
    search('');
    input.current?.focus();
  };
  return (
    <search>
      <form className="help-search" onSubmit={submit} aria-label={t('help.search.label')}>
        <Icon name="search" size={18} />
        <input
          ref={input}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('help.search.placeholder')}
          aria-label={t('help.search.label')}
          maxLength={HELP_QUERY_MAX}
          autoComplete="off"
          enterKeyHint="search"
          data-testid="help-search"
        />
        {text ? (
          <button type="button" className="help-search-clear" onClick={clear} aria-label={t('help.search.clear')}>
            <Icon name="close" size={16} />
          </button>
        ) : null}
        <button type="submit" className="visually-hidden">
          {t('help.search.submit')}
        </button>
      </form>
    </search>
  );
}
