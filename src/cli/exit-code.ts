/**
 * The exit code a command asks for without throwing (a crawl that fetched nothing: 1, an
 * interrupted one: 130). Kept here rather than in `process.exitCode`, so that running the CLI
 * in-process (tests) never changes the exit code of the process that runs it.
 */
let requested: number | undefined;

/** Asks `main` to return `code` once the command is done. */
export function requestExitCode(code: number): void {
  requested = code;
}

/** The code asked for since the last call (undefined: none), and forgets it. */
export function takeExitCode(): number | undefined {
  const code = requested;
  requested = undefined;
  return code;
}
