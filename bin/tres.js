#!/usr/bin/env node
// The `tres` command. The TypeScript sources are compiled to dist/ by `npm install` (prepare).
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  },
);
