/** What other features may use of the identity feature (the layer rule `feature-via-public-surface`). */
export { useVerificationInfo } from './hooks/useVerification';
