import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Network tests start real servers on loopback; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // CLI tests run the built command (src/cli/test-cli.ts): dist/ is rebuilt first when stale.
    globalSetup: ['./test/build-dist.ts'],
    // dist/ is loaded by Node as built, not compiled again by vite.
    server: { deps: { external: [/\/dist\//] } },
    reporters: ['default', new PlainSummaryReporter()],
  },
});
