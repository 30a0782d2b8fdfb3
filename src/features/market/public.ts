/**
 * What other features may use of the market feature (the layer rule `feature-via-public-surface`): the price-change
 * and staleness marks every trading page shows, the favourites list, the instrument list and the volume format.
 */
export { Change } from './components/Change';
export { StaleMark, StaleNote } from './components/StaleMark';
export { useFavourites } from './hooks/useFavourites';
export { useInstruments } from './hooks/useInstruments';
export { formatVolume, formatVolumeOf } from './live/volume';
