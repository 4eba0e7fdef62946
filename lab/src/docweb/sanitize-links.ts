/**
 * Keeps an extracted package self-contained. Debian doc packages hold symlinks into other
 * packages (`/usr/share/javascript/jquery/jquery.js`, `../../../javascript/...`). Extracted
 * without installing, an absolute link would point into the host's own file system, so the
 * replay server could end up serving host files. Absolute links are re-rooted inside the package
 * folder; links that would still leave it are removed (they become 404s, like any missing
 * dependency).
 */
import { readdir, readlink, symlink, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** What {@link sanitizeLinks} changed. */
export interface SanitizeReport {
  /** Absolute links rewritten to point inside the package folder. */
  rerooted: number;
  /** Links removed because they lead outside the package folder. */
  removed: number;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/**
 * Rewrites every symlink under `root` so it stays inside `root` (see the file comment).
 * @throws the file system error if a folder cannot be read or a link cannot be rewritten.
 */
export async function sanitizeLinks(root: string): Promise<SanitizeReport> {
  const top = resolve(root);
  const report: SanitizeReport = { rerooted: 0, removed: 0 };
  const stack = [top];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        stack.push(path);
        continue;
      }
      if (!entry.isSymbolicLink()) continue;
      const target = await readlink(path);
      if (target.startsWith('/')) {
        const inside = join(top, target);
        await unlink(path);
        if (isInside(top, inside)) {
          await symlink(relative(dirname(path), inside) || '.', path);
          report.rerooted++;
        } else report.removed++;
      } else if (!isInside(top, resolve(dirname(path), target))) {
        await unlink(path);
        report.removed++;
      }
    }
  }
  return report;
}
