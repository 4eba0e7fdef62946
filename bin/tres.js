#!/usr/bin/env node
// The `tres` command. The TypeScript sources are compiled to dist/ by `npm install` (prepare).
import { main } from '../dist/cli/main.js';

// `tres crawl --help | head`: the reader has gone, so stop quietly instead of with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  },
);
