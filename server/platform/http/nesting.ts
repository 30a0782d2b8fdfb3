/**
 * How deep a request may nest objects and arrays (the body itself is level 1). Every call's form is flat and a
 * socket command's `args` sit one level below its request, so 8 leaves room for lists of records while every walk
 * over what a client sent (the JSON number check, a command's args) stays short, whatever it sent.
 */
export const BODY_DEPTH_MAX = 8;

/**
 * Whether `value` nests objects or arrays more than `max` levels deep. Iterative with its own stack: JSON.parse
 * builds a 10,000-deep body from 20 KB without complaint, and a recursive walk over it would exhaust the call stack.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: object; depth: number }[] = [];
  if (typeof value === 'object' && value !== null) pending.push({ value, depth: 1 });
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > max) return true;
    for (const inner of Object.values(next.value)) {
      if (typeof inner === 'object' && inner !== null) pending.push({ value: inner, depth: next.depth + 1 });
    }
  }
  return false;
}
