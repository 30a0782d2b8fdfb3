import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Where `npm run dev` forwards /api and socket.io: the reference server started beside Vite. */
const serverPort = Number(process.env.PORT ?? 8080);
const serverTarget = `http://127.0.0.1:${serverPort}`;

/** Module ids under protocol/ (the contract shared with the server). */
const protocolDir = fileURLToPath(new URL('./protocol/', import.meta.url));
const protocolModules = new RegExp(`^${protocolDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // tests/size/route-budgets.ts reads the chunk graph from the manifest (DESIGN "Fast on a phone").
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        // protocol/ only declares (schemas, constants, pure functions): importing one of its modules has no effect
        // of its own. Said here, a module whose own exports go unused costs nothing, and one that re-exports
        // (account.ts re-exports user.ts, funding.ts and identity.ts the account events) passes on only what is
        // used: the shell takes the user and event schemas without the areas' forms and calls.
        moduleSideEffects: [{ test: protocolModules, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // Everything the entry imports statically ($initial) loads on every visit: one chunk for all of it
          // compresses better and takes fewer requests than the common chunks it would otherwise share with pages.
          // That set already holds its own static imports, so the group pulls in no dependencies itself (doing so
          // would bring back modules tree-shaking dropped).
          groups: [{ name: 'shell', tags: ['$initial'], includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      '/api': serverTarget,
      '/socket.io': { target: serverTarget, ws: true },
    },
  },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
          include: [
            'src/**/*.test.{ts,tsx}',
            'core/**/*.test.ts',
            'protocol/**/*.test.ts',
            'machines/**/*.test.ts',
            'streams/**/*.test.ts',
            'workers/**/*.test.ts',
            'tests/unit/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['server/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
