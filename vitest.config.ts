import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import PlainSummaryReporter from './test/plain-summary-reporter.js';
// The package names of the crawler and the test support resolve to their sources (vite.config.ts).
import viteConfig from './vite.config.js';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Every test of both packages (the crawler's src/, the lab's lab/src/) in one run.
      include: ['src/**/*.test.ts', 'lab/src/**/*.test.ts', 'test/**/*.test.ts'],
      // Network tests start real servers on loopback; give them room on a 2-core machine.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      pool: 'forks',
      // One worker per core, not vitest's default of cores - 1 (a single worker on a 2-core
      // machine): many files spend their time waiting on child processes, loopback servers and the
      // browser, so two workers on two cores finish sooner (figures in
      // results/test-suite-time.md).
      maxWorkers: availableParallelism(),
      // The files of one worker share one module graph instead of importing the sources again for
      // each file: collecting took 99 s of the 577 s run. No test relies on a fresh module (a run
      // with the files shuffled passed too).
      isolate: false,
      // CLI tests run the built command (src/cli/test-cli.ts): dist/ is rebuilt first when stale.
      globalSetup: ['./test/build-dist.ts'],
      // dist/ is loaded by Node as built, not compiled again by vite.
      server: { deps: { external: [/\/dist\//] } },
      reporters: ['default', new PlainSummaryReporter()],
    },
  }),
);
