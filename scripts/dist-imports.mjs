// Lists every package that the built dist/ imports and flags those that are not in
// package.json "dependencies" (a devDependency in dist breaks `npm install tres-crawler`).
// Run after `npm run build`:  node scripts/dist-imports.mjs   (exit 1 if any is flagged)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
// Optional dependencies count: dist loads them lazily (playwright-core, only when a crawl renders).
const deps = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}),
]);
const builtins = new Set(builtinModules);
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
/** @type {Map<string, string[]>} dist file -> the packages it imports that are not dependencies */
const bad = new Map();
/** @type {Set<string>} */
const used = new Set();
/** @param {string} dir */
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.js')) {
      for (const m of readFileSync(path, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? '';
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        const name = spec.startsWith('@')
          ? spec.split('/').slice(0, 2).join('/')
          : (spec.split('/')[0] ?? spec);
        if (builtins.has(name)) continue;
        used.add(name);
        if (!deps.has(name)) bad.set(path, [...(bad.get(path) ?? []), name]);
      }
    }
  }
}
walk('dist');
console.log(`packages dist imports: ${[...used].sort().join(', ')}`);
for (const [file, names] of bad) console.log(`NOT A DEPENDENCY: ${file} imports ${names.join(', ')}`);
console.log(bad.size === 0 ? 'dist imports only dependencies' : `${bad.size} files import non-dependencies`);
process.exitCode = bad.size === 0 ? 0 : 1;
