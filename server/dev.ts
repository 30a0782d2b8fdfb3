import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { readConfig } from './config';
import { closeOnSignals, startServer } from './main';

/**
 * What `npm run dev` runs: the API server on PORT, and Vite's dev server (hot reload) in front of it, which
 * forwards /api and /socket.io to PORT (vite.config.ts). Open Vite's URL, not PORT.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const server = await startServer(readConfig(), { staticDir: false });
const vite = await createServer({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts') });
await vite.listen();
vite.printUrls();
closeOnSignals(async () => {
  await vite.close();
  await server.close();
});
