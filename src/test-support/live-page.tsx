import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * A page that shows a book through a product's live hook (useSpotLive, useOptionLive, useLeverLive), for the hooks'
 * tests: it records every controller the hook hands the page, so a test can tell which one the page draws and that a
 * stopped one never comes back. The streams' vi.mock calls stay in each test file: Vitest hoists them per file.
 */

/** What a live hook hands the page: a controller whose book actor runs while the page shows its book. */
interface Controller<Book> {
  /** The book it runs; spot has one book only, so its controller names none. */
  readonly book?: Book;
  readonly actor: { getSnapshot(): { status: string } };
}

/**
 * Mounts the page on `book` and waits for the hook to hand it that book's controller (`first`). `switchTo` shows
 * another book and `leave` unmounts the page; what stops when is the test's to assert.
 */
export async function showLivePage<Book, Live extends Controller<Book>>(
  useLive: (book: Book) => Live | null,
  // The hook says which books there are: 'real' alone is not the type of a page that also shows 'simulator'.
  book: NoInfer<Book>,
) {
  const seen: (Live | null)[] = [];
  const client = new QueryClient();
  function Page({ shown }: { shown: Book }) {
    seen.push(useLive(shown));
    return null;
  }
  const page = (shown: Book) => (
    <QueryClientProvider client={client}>
      <Page shown={shown} />
    </QueryClientProvider>
  );
  /** The controller of `shown`, once the hook hands it to the page (it starts in an effect, after the first render). */
  const handed = (shown: Book): Promise<Live> =>
    waitFor(() => {
      const last = seen.at(-1);
      if (!last) throw new Error('The hook has handed the page no controller yet');
      expect(last.book).toBe(shown);
      return last;
    });

  const view = render(page(book));
  const first = await handed(book);
  let current = first;
  return {
    first,
    /**
     * Shows `next` instead and waits for its controller. The old book's is stopped by then, and from the switch on the
     * page is never handed it again (a stopped controller drawn for a moment would show a dead book).
     */
    async switchTo(next: Book): Promise<Live> {
      const old = current;
      const switched = seen.length;
      view.rerender(page(next));
      current = await handed(next);
      expect(old.actor.getSnapshot().status).toBe('stopped');
      expect(seen.slice(switched)).not.toContain(old);
      return current;
    },
    /** The page leaves. */
    leave(): void {
      view.unmount();
    },
  };
}
