import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { isEntryPoint } from './entry';
import { closeOnSignals, startServer } from './main';

/** What `npm start` runs: build the client if its sources changed since the last build, then start the server. */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Everything the Vite build reads; a change to any of them makes dist/ stale. */
const CLIENT_SOURCES = [
  'src',
  'core',
  'locales',
  'protocol',
  'streams',
  'machines',
  'workers',
  'scripts',
  'index.html',
  'vite.config.ts',
];

/** Newest modification time (ms) of a file or of anything under a folder; 0 when missing. */
export function newestChange(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestChange(path.join(target, entry)));
  }
  return newest;
}

/** True when dist/index.html is missing or older than any client source. */
export function clientIsStale(root: string = ROOT): boolean {
  const built = newestChange(path.join(root, 'dist', 'index.html'));
  return built === 0 || CLIENT_SOURCES.some((source) => newestChange(path.join(root, source)) > built);
}

async function buildClientIfStale(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'index.html'))) {
    console.warn('start: no index.html in the project, serving the API without a client');
    return;
  }
  if (!clientIsStale()) return;
  console.log('start: client sources changed, running the Vite build');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

if (isEntryPoint(import.meta.url)) {
  await buildClientIfStale();
  const server = await startServer();
  closeOnSignals(server.close);
}
