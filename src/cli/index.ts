/**
 * The `tres` command's runner, for other commander programs that want its exit codes and its
 * one-line errors (the lab's `npm run lab --` command, through `tres-crawler/internals`).
 */
export { runProgram } from './main.js';
