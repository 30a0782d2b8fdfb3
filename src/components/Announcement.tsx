import type { ReactElement } from 'react';

/**
 * A polite live region that stays in the page, empty until there is something to say: a screen reader announces
 * what is written into a region it already knows, while one inserted together with its text is often missed. Visually
 * hidden: the card beside it shows the same words. Only results belong here (an order's phase, its outcome), never a
 * value that follows the ticks, which would be read out on every price.
 */
export function Announcement({ text, testId }: { text: string; testId?: string }): ReactElement {
  return (
    <p className="visually-hidden" role="status" data-testid={testId}>
      {text}
    </p>
  );
}
