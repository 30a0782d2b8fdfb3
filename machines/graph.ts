/** Names shared by the machine drawings (machines/drawing/chart.ts) and their test paths. */

/** A readable event name: `xstate.after.untilAllotment.ieoSubscription.x` is `after untilAllotment`. */
export function eventName(type: string): string {
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
  if (done) return `${done[2]} ${done[1]}`;
  return type;
}
