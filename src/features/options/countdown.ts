/** How often a contract's countdown redraws: four times a second keeps the whole seconds on time without busy rendering. */
export const COUNTDOWN_MS = 250;

/** The contract machine's phases in which the ticket shows a time (to the entry tick, to expiry, to the exit tick). */
export const COUNTING = ['waiting', 'running', 'settling'] as const;
