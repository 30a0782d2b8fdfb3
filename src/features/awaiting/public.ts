/**
 * What other features may use of the awaiting feature (the layer rule `feature-via-public-surface`): the "waiting for
 * you" list home and assets show. Pages import this module lazily (a static import would put the list's preload
 * table into the first route), and the gate loads the list, its streams and its strings only for a logged-in user.
 */
export { AwaitingYou } from './components/AwaitingYou';
