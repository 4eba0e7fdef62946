import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Network tests start real servers on loopback; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', new PlainSummaryReporter()],
  },
});
