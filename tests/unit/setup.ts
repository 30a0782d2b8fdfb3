import { configure } from '@testing-library/react';

/**
 * Waits in component tests wait for an event (a render, a route change), not for luck: on a busy 2-core machine a
 * lazy page or a re-render can take well over testing-library's default second. A longer limit costs nothing when
 * things are quick; it only stops a slow machine from failing a correct test.
 */
configure({ asyncUtilTimeout: 10_000 });
