/**
 * What vite-node and vitest share: the lab and the shared test support import the crawler by its
 * package names, and run from the sources (`npx vite-node lab/src/...`, the tests) they get its
 * sources, the same modules the crawler's own tests load, with no build first. Built, they get
 * the built packages (`npm run bench`, `npm run lab`). vitest.config.ts adds the tests' settings.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** A path in this repository. */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^tres-crawler$/, replacement: here('./src/index.ts') },
      { find: /^tres-crawler\/internals$/, replacement: here('./src/internals.ts') },
      { find: /^tres-testing$/, replacement: here('./testing/src/index.ts') },
      { find: /^tres-testing\/temp-dir$/, replacement: here('./testing/src/temp-dir.ts') },
    ],
  },
});
