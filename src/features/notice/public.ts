/**
 * What other features may use of the notice feature (the layer rule `feature-via-public-surface`): the home page's
 * latest announcements, which it loads lazily, so keep this surface small.
 */
export { LatestAnnouncements } from './components/LatestAnnouncements';
