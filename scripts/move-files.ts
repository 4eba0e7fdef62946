/**
 * Moves source files (`git mv`) and fixes every relative import under src/, scripts/ and test/
 * that pointed at a moved file or, in a moved file, at a path relative to its old folder. Each
 * move is recorded in scripts/moved-files.tsv, so after a rebase onto a main that still imports
 * the old paths (take main's side of the conflict), running it with no arguments fixes them:
 *
 *   npx vite-node scripts/move-files.ts -- OLD=NEW ...   (git mv, record, fix imports)
 *   npx vite-node scripts/move-files.ts                  (fix imports from the recorded moves)
 *
 * Then run scripts/imports-through-index.ts: imports across rooms go through an index.ts. After a
 * rebase, an import that main added to a moved file and that resolves from both its old and its
 * new folder is left as it is: `npm run typecheck` finds it.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const TABLE = join(ROOT, 'scripts', 'moved-files.tsv');
const posix = (p: string) => p.split(sep).join('/');

const moves = new Map<string, string>(); // old -> new, absolute
/** Files moved by this run: every relative import in them was written from the old folder. */
const justMoved = new Set<string>();
if (existsSync(TABLE)) {
  for (const line of readFileSync(TABLE, 'utf8').split('\n')) {
    const [from, to] = line.split('\t');
    if (from && to && !from.startsWith('#')) moves.set(join(ROOT, from), join(ROOT, to));
  }
}
for (const arg of process.argv.slice(2).filter((a) => a !== '--')) {
  const [from, to] = arg.split('=');
  if (!from || !to) throw new Error(`${arg}: give OLD=NEW (paths from the repository root)`);
  const [oldPath, newPath] = [join(ROOT, from), join(ROOT, to)];
  mkdirSync(dirname(newPath), { recursive: true });
  execFileSync('git', ['mv', oldPath, newPath], { cwd: ROOT });
  appendFileSync(TABLE, `${posix(relative(ROOT, oldPath))}\t${posix(relative(ROOT, newPath))}\n`);
  moves.set(oldPath, newPath);
  justMoved.add(newPath);
}
const oldOf = new Map([...moves].map(([o, n]) => [n, o]));

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : tsFiles(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

// `from '...'`, `import '...'` and `import('...')` with a relative specifier.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;
const asTs = (p: string) => p.replace(/\.js$/, '.ts');

let fixed = 0;
for (const file of ['src', 'scripts', 'test'].flatMap((d) => tsFiles(join(ROOT, d)))) {
  const before = readFileSync(file, 'utf8');
  const after = before.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    // A specifier that resolves is left alone, except in a file this run moved: `../index.js` may
    // name a file from both folders (src/index.ts from bench/, bench/index.ts from bench/engine/).
    const resolves =
      existsSync(asTs(resolve(dirname(file), spec))) || existsSync(resolve(dirname(file), spec));
    if (resolves && !justMoved.has(file)) return whole;
    // Resolved from the file's old folder (a moved file), or an old path that has moved.
    const fromOld = resolve(dirname(oldOf.get(file) ?? file), spec);
    const target = moves.get(asTs(fromOld)) ?? (existsSync(asTs(fromOld)) ? asTs(fromOld) : undefined);
    if (!target) return whole;
    let next = posix(relative(dirname(file), target));
    if (!next.startsWith('.')) next = `./${next}`;
    if (spec.endsWith('.js')) next = next.replace(/\.ts$/, '.js');
    return `${lead}${quote}${next}${quote}`;
  });
  if (after !== before) {
    writeFileSync(file, after);
    fixed++;
    console.log(`fixed ${posix(relative(ROOT, file))}`);
  }
}
console.log(`${moves.size} moves recorded; imports fixed in ${fixed} files`);
