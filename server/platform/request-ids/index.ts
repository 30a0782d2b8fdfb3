/** The public surface of this module: other code imports it only through this file. */
export * from './migrations/0025_request_ids';
export * from './request-ids';
