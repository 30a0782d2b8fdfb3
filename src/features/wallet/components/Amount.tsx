import type { ReactElement } from 'react';
import { useSnapshot } from 'valtio';
import { amountsView, MASK } from './hideAmounts';

/** An amount that the "hide amounts" eye masks; `text` is already formatted for the user's language. */
export function Amount({
  text,
  className,
  testId,
}: {
  text: string;
  className?: string;
  testId?: string;
}): ReactElement {
  const { hidden } = useSnapshot(amountsView);
  return (
    <span className={className ? `amount ${className}` : 'amount'} data-testid={testId}>
      {hidden ? MASK : text}
    </span>
  );
}
