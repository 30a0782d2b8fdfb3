/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export { uploadsDomain } from './domain';
export * from './store';
export { type UploadsTables, withUploads } from './tables';
