/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { identityDomain } from './domain';
export * from './migrations/0004_uploads_identity';
export * from './ops';
export * from './service';
export { type IdentityTables, withIdentity } from './tables';
