import { type KeyboardEvent, type ReactElement, useRef } from 'react';

/**
 * Where each key moves the choice among `count` options (WAI-ARIA horizontal tabs: left and right wrap, Home and End go
 * to the ends; up and down stay the page's, for scrolling).
 */
function nextIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowRight') return (current + 1) % count;
  if (key === 'ArrowLeft') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * A two-or-more option switch (phone / e-mail, password / code). A tab list to assistive technology and to the
 * keyboard too: one stop in the Tab order (the chosen option), the arrow keys, Home and End choose and focus another.
 */
export function Segmented<V extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (v: V) => void;
  label: string;
}): ReactElement {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const chosen = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = nextIndex(event.key, chosen, options.length);
    const option = next === null ? undefined : options[next];
    if (next === null || !option) return;
    event.preventDefault();
    onChange(option.value);
    buttons.current[next]?.focus();
  };
  return (
    <div className="segmented" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {options.map((o, k) => (
        <button
          key={o.value}
          ref={(el) => {
            buttons.current[k] = el;
          }}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          tabIndex={k === chosen ? 0 : -1}
          className={o.value === value ? 'segmented-item is-active' : 'segmented-item'}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
