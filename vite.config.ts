import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Where `npm run dev` forwards /api and socket.io: the reference server started beside Vite. */
const serverPort = Number(process.env.PORT ?? 8080);
const serverTarget = `http://127.0.0.1:${serverPort}`;

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, manifest: true, chunkSizeWarningLimit: 900 },
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
