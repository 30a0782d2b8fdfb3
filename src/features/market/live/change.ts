import { signOf, toDecimalText } from '../../../../core/decimal-text';

// Apart from the quote cells: trade pages draw a change badge without loading the market list's cell formatting.

export type ChangeDirection = 'up' | 'down' | 'flat';

/** Whether a 24 h change (in percent) is up, down or flat; a bad value is flat. */
export function changeDirection(pct: string): ChangeDirection {
  const text = toDecimalText(pct);
  const sign = text === null ? 0 : signOf(text);
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
}

/** The change badge's classes: its direction's colour (the text's sign says the same without colour). */
export const changeClass = (dir: ChangeDirection, filled = false): string =>
  `change change-${dir}${filled ? ' change-filled' : ''}`;
