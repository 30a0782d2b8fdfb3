import type { ReactElement, ReactNode } from 'react';

/**
 * A row of pill-shaped choices, one of them chosen (components.css `.chip`). As radios (`kind="radio"`, default) it
 * picks a value inside a form (an instrument, a leverage); as tabs it switches what a list shows (the C2C order
 * statuses). `label` names the group for screen readers; `rowClassName` and `chipClassName` add a product's layout.
 */
export function ChoiceChips<T extends string | number>({
  choices,
  value,
  onChange,
  label,
  text,
  testId,
  kind = 'radio',
  rowClassName = 'chip-row',
  chipClassName,
}: {
  choices: readonly T[];
  value: T;
  onChange: (choice: T) => void;
  label: string;
  text: (choice: T) => ReactNode;
  testId: (choice: T) => string;
  kind?: 'radio' | 'tab';
  rowClassName?: string;
  chipClassName?: string;
}): ReactElement {
  const chip = chipClassName ? `chip ${chipClassName}` : 'chip';
  const chips = choices.map((choice) => {
    const chosen = choice === value;
    const props = {
      type: 'button' as const,
      className: chosen ? `${chip} is-active` : chip,
      'data-testid': testId(choice),
      onClick: () => onChange(choice),
    };
    return kind === 'tab' ? (
      <button key={choice} {...props} role="tab" aria-selected={chosen}>
        {text(choice)}
      </button>
    ) : (
      // biome-ignore lint/a11y/useSemanticElements: a row of chips, each a button acting as one radio of the group
      <button key={choice} {...props} role="radio" aria-checked={chosen}>
        {text(choice)}
      </button>
    );
  });
  return kind === 'tab' ? (
    <div className={rowClassName} role="tablist" aria-label={label}>
      {chips}
    </div>
  ) : (
    <div className={rowClassName} role="radiogroup" aria-label={label}>
      {chips}
    </div>
  );
}
