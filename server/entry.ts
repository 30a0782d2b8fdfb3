import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when the module at `moduleUrl` is the script node (or tsx) was started with, not an import. */
export const isEntryPoint = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl);
