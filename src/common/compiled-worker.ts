/**
 * The JavaScript file of a worker (a child process or a worker thread). Node 20 cannot start a
 * `.ts` file, so a worker always runs compiled code: from the build (dist/) the worker compiled
 * beside its caller; from the TypeScript sources (tests, vite-node) the same worker in dist/,
 * which the test set-up builds when a source is newer (test/build-dist.ts). Nothing is bundled
 * at run time, so the product needs no build tool (it used esbuild, a dev dependency).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled worker `name` (`pdf-worker.js`) of the room of `callerUrl` (`import.meta.url`).
 * @throws Error naming the missing file and `npm run build` when the worker has not been built.
 */
export function compiledWorkerPath(callerUrl: string, name: string): string {
  const here = dirname(fileURLToPath(callerUrl));
  const beside = join(here, name);
  if (existsSync(beside)) return beside;
  // From src/<room>/ the build is dist/<room>/ (tsconfig.build.json: rootDir src, outDir dist).
  const room = basename(here);
  const built = join(here, '..', '..', 'dist', room, name);
  if (existsSync(built)) return built;
  throw new Error(
    `the worker ${name} runs compiled JavaScript and ${relative(process.cwd(), built)} is missing: run npm run build`,
  );
}
