/**
 * Writes a live cell (a figure the positions worker publishes) without React: only what differs from what it shows,
 * the text in its one text node where it has one (cheaper for the browser than a new node). `className`, when given,
 * is the whole class attribute, which the cell then owns (React renders such cells without one).
 */
export function writeCell(element: HTMLElement | null, text: string, className?: string): void {
  if (!element) return;
  const node = element.firstChild;
  if (node !== null && node === element.lastChild && node.nodeType === Node.TEXT_NODE) {
    if (node.nodeValue !== text) node.nodeValue = text;
  } else if (element.textContent !== text) element.textContent = text;
  if (className !== undefined && element.className !== className) element.className = className;
}
