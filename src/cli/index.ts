/**
 * The `tres` command's runner and its one-line form of commander's errors, for other commander
 * programs that want its exit codes and its one-line errors (the lab's `npm run lab --` command,
 * through `tres-crawler/internals`).
 */
export { oneLineErrors, runProgram } from './main.js';
