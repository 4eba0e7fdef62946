/**
 * How to write a `tres` command that the user can paste. After the README's set-up (`npm
 * install` in the project folder) `tres` is not on the PATH; `npx tres` runs it there. Commands
 * the CLI prints start with `npx tres` unless this very program was found on the PATH as `tres`
 * (`npm link`, a global install), where plain `tres` works in any folder.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command of the documented set-up (README "Set-up"): works in the project folder. */
export const NPX_TRES = 'npx tres';

/** The `bin/tres.js` of this package, resolved (from dist/cli/ or src/cli/). */
function ownBin(): string | undefined {
  try {
    return realpathSync(fileURLToPath(new URL('../../bin/tres.js', import.meta.url)));
  } catch {
    return undefined;
  }
}

/**
 * True when `tres` on the PATH is this package's bin. npx and `npm run` put a project's
 * `node_modules/.bin` on a PATH of their own, so those entries are skipped: the user's own shell
 * lacks them.
 * @param env the environment to read PATH and npm_command from
 */
export function isTresOnPath(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.npm_command === 'exec') return false;
  const bin = ownBin();
  if (bin === undefined) return false;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || isNpmBinDir(dir)) continue;
    const candidate = join(dir, 'tres');
    try {
      if (existsSync(candidate) && realpathSync(candidate) === bin) return true;
    } catch {
      // an unreadable PATH entry: try the next
    }
  }
  return false;
}

/** A `node_modules/.bin` folder: npm's, on the PATH only inside `npm run` and npx. */
function isNpmBinDir(dir: string): boolean {
  return basename(dir) === '.bin' && basename(dirname(dir)) === 'node_modules';
}

/** `npx tres ARGS` or `tres ARGS` (see the module comment), ready to paste. */
export function tresCommand(args: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${isTresOnPath(env) ? 'tres' : NPX_TRES} ${args}`;
}
