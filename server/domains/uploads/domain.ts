import { uploadCalls } from '../../../protocol/uploads';
import { defineDomain } from '../contract';
import { registerUploadRoutes, uploadHandlers } from './calls';
import { uploadsErrors } from './errors';
import { withUploads } from './tables';

/** Uploaded images; the store itself is the app's (ctx.uploads), shared with chat and the console. */
export const uploadsDomain = defineDomain({
  name: 'uploads',
  calls: uploadCalls,
  errors: uploadsErrors,
  tables: withUploads,
  start: (ctx) => ({
    handlers: uploadHandlers(ctx.uploads),
    routes: (app) => registerUploadRoutes(app, { store: ctx.uploads, sessions: ctx.sessions, limiter: ctx.limiter }),
  }),
});
