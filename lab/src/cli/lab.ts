/**
 * `npm run lab -- COMMAND`: the research harness's commands, apart from the product's `tres`
 * command. `bench crawl` and `bench summary` (the crawl benchmark on a topic's web, and one report
 * over several topics), and `docweb build|links|grow|serve|topic|sample` (the DocWeb builder and
 * server, and training samples from it). Part of the lab's package (lab/), built into lab/dist/
 * (scripts/build-lab.mjs), never published; `npm run lab` builds it and runs it at the
 * repository's root, so it reads data/ (topics, the DocWeb manifest) from there.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { oneLineErrors, runProgram } from 'tres-crawler/internals';
import { registerBenchCommand } from './bench.js';
import { registerDocwebCommand } from './docweb.js';

/** How the harness is started (its help and messages name it so). */
export const LAB_COMMAND = 'npm run lab --';

/** Builds the harness program with its commands. Exported for tests. */
export function buildLabProgram(): Command {
  const program = new Command(LAB_COMMAND)
    .description(
      'the research harness of tres: crawl benchmarks and the DocWeb (not part of the published package)',
    )
    .exitOverride();
  registerBenchCommand(program);
  registerDocwebCommand(program);
  // One line naming the help to read, as the tres command answers (set after the commands exist).
  oneLineErrors(program);
  return program;
}

/** Runs the harness's command line; resolves to the exit code. */
export function main(argv: string[]): Promise<number> {
  return runProgram(buildLabProgram(), argv);
}

// Run as a program (`node lab/dist/cli/lab.js ...`), not when imported by a test.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exitCode = 1;
    },
  );
}
