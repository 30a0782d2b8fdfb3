/**
 * Cursor paging of newest-first lists: the query asks for `limit + 1` rows (`id < before_id`, id descending); the
 * extra row only tells whether an older page exists, whose cursor is the last id shown (stable while new rows
 * arrive at the top).
 */
export function cursorPage<T extends { id: number }>(
  rows: readonly T[],
  limit: number,
): { page: T[]; next_before_id: number | null } {
  const page = rows.slice(0, limit);
  return { page, next_before_id: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
