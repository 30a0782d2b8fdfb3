import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { createQueryClient } from '../data/query';

/**
 * A component that links (list rows to their detail pages), drawn inside a router of its own on '/' and a fresh query
 * client, for component tests: a Link needs a router, and the app's own router would load the whole shell. `at` adds
 * a query (`/?id=3`) for a page that reads its record from the link.
 */
export function inRouter(view: () => ReactElement, at = '/'): ReactElement {
  const root = createRootRoute({ component: view });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: [at] }) });
  return (
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

/** An answer of the api in its envelope. */
export const okEnvelope = (data: unknown) => ({ type: 'ok', code: 1, message: 'OK', data });

/** A fetch that gives the api's answers by path ('coin/list'), for vi.stubGlobal; any other call fails the test. */
export function apiAnswers(answers: Record<string, unknown>): typeof fetch {
  return async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const path = url.pathname.replace('/api/', '');
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    return new Response(JSON.stringify(okEnvelope(answers[path])), { headers: { 'content-type': 'application/json' } });
  };
}
