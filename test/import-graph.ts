/**
 * The relative imports of every .ts file under src/, and which of them cross a room (a folder
 * directly under src/) without going through that room's index.ts. Used by
 * import-boundaries.test.ts and by scripts/count-imports.ts (which prints the figures).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One relative import: the importing file and the imported file, both relative to src/. */
export interface ImportEdge {
  from: string;
  to: string;
  /** The specifier as written (`'../net/fetcher.js'`). */
  specifier: string;
  /** True if only types are imported (`import type`, `export type`). */
  isTypeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// Static `import ... from '...'`, `export ... from '...'`, side-effect `import '...'`, and
// dynamic `import('...')` with a literal; comments are stripped first so examples in doc
// comments do not count.
const STATIC = /(^|\n)\s*(import|export)(\s+type)?\b([^'";]*?)\bfrom\s*['"]([^'"]+)['"]/g;
const BARE = /(^|\n)\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

/** The specifiers a file's imports name (relative and bare), comments stripped. */
function specifiersOf(file: string): { specifier: string; isTypeOnly: boolean }[] {
  const text = stripComments(readFileSync(file, 'utf8'));
  const found: { specifier: string; isTypeOnly: boolean }[] = [];
  for (const m of text.matchAll(STATIC)) {
    const clause = m[4] ?? '';
    const isTypeOnly = m[3] !== undefined || /^\s*\{\s*(type\s+[^,}]+,?\s*)+\}\s*$/.test(clause);
    found.push({ specifier: m[5]!, isTypeOnly });
  }
  for (const m of text.matchAll(BARE)) found.push({ specifier: m[2]!, isTypeOnly: false });
  for (const m of text.matchAll(DYNAMIC)) found.push({ specifier: m[1]!, isTypeOnly: false });
  return found;
}

/** One import of a file under a package's folder: the file (relative to that folder) and what it names. */
export interface PackageImport {
  from: string;
  specifier: string;
}

/**
 * Imports that leave the package whose sources are under `srcDir`: a relative specifier that
 * resolves outside `srcDir`, or a bare one naming any of `packages` (or a subpath of one) that is
 * not in `allowed`. The lab holds these at none with the crawler's entries as `allowed`.
 */
export function importsLeaving(
  srcDir: string,
  packages: readonly string[],
  allowed: readonly string[],
): PackageImport[] {
  const root = resolve(srcDir);
  const out: PackageImport[] = [];
  for (const file of tsFiles(root)) {
    const from = relative(root, file).split(sep).join('/');
    for (const { specifier } of specifiersOf(file)) {
      const isOutside =
        specifier.startsWith('.') && relative(root, resolve(dirname(file), specifier)).startsWith('..');
      const named = packages.some((p) => specifier === p || specifier.startsWith(`${p}/`));
      if (isOutside || (named && !allowed.includes(specifier))) out.push({ from, specifier });
    }
  }
  return out;
}

/** Every relative import under `srcDir`, in file order. */
export function importEdges(srcDir: string): ImportEdge[] {
  const root = resolve(srcDir);
  const edges: ImportEdge[] = [];
  for (const file of tsFiles(root)) {
    const found = specifiersOf(file);
    for (const { specifier, isTypeOnly } of found) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      edges.push({
        from: relative(root, file).split(sep).join('/'),
        to: relative(root, target).split(sep).join('/'),
        specifier,
        isTypeOnly,
      });
    }
  }
  return edges;
}

/** The room of a path relative to src/: its first folder, or '' for files directly in src/. */
export function roomOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Test support: helpers of tests that the build leaves out (tsconfig.build.json), so no index.ts
 * exports them and tests of other rooms import them directly.
 */
export function isTestSupport(path: string): boolean {
  return /\.test\.ts$|(^|\/)test-[^/]*\.ts$|-test-utils\.ts$|-arbitraries\.ts$/.test(path);
}

/**
 * Imports from one room into another that do not name the other room's index.ts (imports of
 * another room's test support excepted).
 */
export function roomBypasses(edges: readonly ImportEdge[]): ImportEdge[] {
  return edges.filter((e) => {
    const to = roomOf(e.to);
    return to !== '' && roomOf(e.from) !== to && e.to !== `${to}/index.ts` && !isTestSupport(e.to);
  });
}

/**
 * Imports between folders (any depth), and those of them that reach into a folder from outside it
 * without naming that folder's index.ts. A file may import its own folder's and its ancestors'
 * files directly (strategies/tres/ uses strategies/strategy.ts), and test support from anywhere;
 * files directly in src/ are the library's entry.
 */
export function folderBypasses(edges: readonly ImportEdge[]): { between: number; bypass: ImportEdge[] } {
  const between = edges.filter((e) => dirname(e.from) !== dirname(e.to));
  return {
    between: between.length,
    bypass: between.filter((e) => {
      const folder = dirname(e.to);
      return (
        folder !== '.' &&
        !e.to.endsWith('/index.ts') &&
        !e.from.startsWith(`${folder}/`) &&
        !isTestSupport(e.to)
      );
    }),
  };
}

/** Two-file cycles: A imports B and B imports A (type-only imports included). */
export function twoFileCycles(edges: readonly ImportEdge[]): [string, string][] {
  const set = new Set(edges.map((e) => `${e.from}\0${e.to}`));
  const out: [string, string][] = [];
  for (const e of edges) {
    if (e.from < e.to && set.has(`${e.to}\0${e.from}`)) out.push([e.from, e.to]);
  }
  return [...new Map(out.map((p) => [p.join('\0'), p])).values()];
}
