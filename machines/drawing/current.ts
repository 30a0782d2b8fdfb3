/**
 * The ids of the atomic states a snapshot's value names, as the drawing marks them (`data-state`): for the machine
 * `leverOrder` and `{ order: 'holding', prices: 'fresh' }`, `leverOrder.order.holding` and `leverOrder.prices.fresh`.
 */
export function activeStateIds(machineId: string, value: unknown): string[] {
  const walk = (prefix: string, v: unknown): string[] => {
    if (typeof v === 'string') return [`${prefix}.${v}`];
    if (v === null || typeof v !== 'object') return [];
    return Object.entries(v).flatMap(([region, inner]) => walk(`${prefix}.${region}`, inner));
  };
  return walk(machineId, value);
}
