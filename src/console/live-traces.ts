import type { TracedActor } from '../../protocol/ops-inspection';

/** The actors held with the newer steps added (each step once, in the actor's own order). */
export function mergeActors(held: readonly TracedActor[], newer: readonly TracedActor[]): TracedActor[] {
  const byActor = new Map(held.map((a) => [a.actor, a]));
  for (const a of newer) {
    const old = byActor.get(a.actor);
    if (!old) {
      byActor.set(a.actor, a);
      continue;
    }
    const seen = new Set(old.steps.map((s) => s.seq));
    const steps = [...old.steps, ...a.steps.filter((s) => !seen.has(s.seq))].sort((x, y) => x.seq - y.seq);
    byActor.set(a.actor, { actor: a.actor, steps });
  }
  return [...byActor.values()];
}
