/**
 * What other features may use of the alerts feature (the layer rule `feature-via-public-surface`): the bell that sets
 * a price alert on an instrument (the chart mounts it) and the sheet itself (the market list opens it for a row held).
 * Import this module lazily: the bell, the sheet and their strings load only for a logged-in user.
 */
export { AlertButton } from './components/AlertButton';
export { PriceAlertSheet } from './components/PriceAlertSheet';
