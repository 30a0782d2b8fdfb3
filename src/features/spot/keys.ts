/** Query keys of the spot feature (one area, so an order change can invalidate all of it by prefix). */
export const spotKeys = {
  all: ['spot'] as const,
  config: ['spot', 'config'] as const,
  history: (symbol: string) => ['spot', 'history', symbol] as const,
};
