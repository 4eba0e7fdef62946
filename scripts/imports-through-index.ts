/**
 * Codemod: every import from one room (a folder directly under src/) into another
 * goes through that room's index.ts; then (a second pass, `--folders`, which the first starts by
 * itself) every import inside a room into a subfolder from outside that subfolder goes through
 * the subfolder's index.ts (sandbox/index.ts imports ./replay/index.js, not ./replay/site-router.js;
 * a file may import its own folder's and its ancestors' files directly). For each import that reaches past an index.ts it adds the
 * names to the room's index.ts (creating the file if the room has none) and points the import at
 * the index; then it writes the library entry (src/index.ts) as explicit lists, so the package's
 * public API does not grow with the rooms' indexes. Test support (test-*.ts, *-test-utils.ts,
 * *-arbitraries.ts) stays out of the indexes: importing it directly is allowed.
 *
 * Re-runnable: after a rebase, take main's side of a conflict in an import line or an index.ts
 * and run it again; it also adds to an index.ts a name that an import of it asks for and it
 * lacks (a merge of main's `import { X } from '../room/file.js'` into a rewritten import line
 * leaves that, without a conflict). It stops, changing nothing, if an index would export two things by one name.
 *
 *   npx vite-node scripts/imports-through-index.ts [-- --dry-run]   (both passes)
 *   npx vite-node scripts/imports-through-index.ts -- --folders     (the second pass only)
 * (then runs `biome check --write` on the files it wrote: it merges and sorts their imports)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { isTestSupport, roomOf } from '../test/import-graph.js';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'src');
const isDryRun = process.argv.includes('--dry-run');
/** The second pass: subfolders inside a room instead of rooms. */
const isFolderPass = process.argv.includes('--folders');

/**
 * The folder (relative to src/) whose index.ts an import from `from` of `to` must name, or
 * undefined when it may name the file. First pass: the target's room, for an import from another
 * room. Second pass: the target's folder, for an import from the same room but outside that
 * folder (not from the folder itself or below it; files directly in src/ are the library entry).
 */
function boundaryOf(from: string, to: string): string | undefined {
  if (isTestSupport(to)) return undefined;
  const room = roomOf(to);
  if (!isFolderPass) return room === '' || roomOf(from) === room ? undefined : room;
  const folder = to.includes('/') ? to.slice(0, to.lastIndexOf('/')) : '';
  if (folder === '' || roomOf(from) !== room || from.startsWith(`${folder}/`)) return undefined;
  return folder;
}

const rel = (abs: string) => relative(SRC, abs).split(sep).join('/');
const specifierFrom = (fromFile: string, toFile: string) => {
  const r = relative(dirname(fromFile), toFile).split(sep).join('/').replace(/\.ts$/, '.js');
  return r.startsWith('.') ? r : `./${r}`;
};

function program(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  return ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
}

/** One import or export clause that reaches past a room's index.ts. */
interface Bypass {
  file: ts.SourceFile;
  node: ts.ImportDeclaration | ts.ExportDeclaration;
  /** The imported file, absolute. */
  target: string;
  /** The folder whose index.ts the import must name (a room in the first pass). */
  room: string;
  /** Names as the target file exports them. */
  names: string[];
  /** False when the import names the index already and only the index lacks a name. */
  isRewrite: boolean;
}

const p = program();
const checker = p.getTypeChecker();
const sources = p.getSourceFiles().filter((f) => f.fileName.startsWith(`${SRC}/`));
const byName = new Map(sources.map((f) => [f.fileName, f]));

function moduleExports(file: string): Map<string, ts.Symbol> {
  const sf = byName.get(file);
  const sym = sf && checker.getSymbolAtLocation(sf);
  const out = new Map<string, ts.Symbol>();
  if (!sym) return out;
  for (const s of checker.getExportsOfModule(sym)) {
    out.set(s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  }
  return out;
}

/** The library entry's public names before any change, to write it out explicitly at the end. */
const entryFile = join(SRC, 'index.ts');
const entryBefore = moduleExports(entryFile);

const bypasses: Bypass[] = [];
for (const file of sources) {
  const from = rel(file.fileName);
  for (const node of file.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    const target = resolve(dirname(file.fileName), spec.text).replace(/\.js$/, '.ts');
    const to = rel(target);
    const room = boundaryOf(from, to);
    if (room === undefined) continue;
    const names: string[] = [];
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (!clause) throw new Error(`${from}: side-effect import of ${spec.text}: route it by hand`);
      if (clause.name) names.push('default');
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings))
        throw new Error(`${from}: import * as ${bindings.name.text} from ${spec.text}: name the imports`);
      if (bindings) for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
    } else {
      const clause = node.exportClause;
      if (!clause || !ts.isNamedExports(clause)) names.push(...moduleExports(target).keys());
      else for (const e of clause.elements) names.push((e.propertyName ?? e.name).text);
    }
    if (to !== `${room}/index.ts`) {
      bypasses.push({ file, node, target, room, names, isRewrite: true });
      continue;
    }
    // Already through the index, but naming what it does not export (a merge can leave that):
    // the name comes from the one file of the room that declares it.
    const exported = moduleExports(target);
    for (const name of names.filter((n) => !exported.has(n))) {
      const owner = sources.find(
        (f) =>
          (isFolderPass ? dirname(rel(f.fileName)) === room : roomOf(rel(f.fileName)) === room) &&
          !isTestSupport(rel(f.fileName)) &&
          moduleExports(f.fileName).get(name)?.declarations?.[0]?.getSourceFile() === f,
      );
      if (!owner) throw new Error(`${from}: no file of ${room}/ exports ${name}`);
      // From a nested folder's index.ts when it exports the name (a nested folder of a room).
      const nested = join(dirname(owner.fileName), 'index.ts');
      const via =
        !isFolderPass && dirname(nested) !== join(SRC, room) && moduleExports(nested).has(name)
          ? nested
          : owner.fileName;
      bypasses.push({ file, node, target: via, room, names: [name], isRewrite: false });
    }
  }
}

// What each room's index.ts must export: name -> the file it comes from (and what it is).
const wanted = new Map<string, Map<string, { file: string; sym: ts.Symbol }>>();
const problems: string[] = [];
for (const b of bypasses) {
  const index = join(SRC, b.room, 'index.ts');
  const already = moduleExports(index);
  const own = moduleExports(b.target);
  const room = wanted.get(b.room) ?? new Map<string, { file: string; sym: ts.Symbol }>();
  wanted.set(b.room, room);
  for (const name of b.names) {
    const sym = own.get(name);
    if (!sym) {
      problems.push(`${rel(b.file.fileName)}: ${rel(b.target)} exports no ${name}`);
      continue;
    }
    const there = already.get(name);
    if (there === sym) continue;
    if (there) {
      problems.push(
        `${b.room}/index.ts exports another ${name}; ${rel(b.file.fileName)} wants ${rel(b.target)}'s`,
      );
      continue;
    }
    const other = room.get(name);
    if (other && other.sym !== sym) {
      problems.push(
        `${b.room}/index.ts would export ${name} from both ${rel(other.file)} and ${rel(b.target)}`,
      );
      continue;
    }
    // One thing imported both from its file and from a nested index.ts: take it from the index.
    if (!other || b.target.endsWith('/index.ts')) room.set(name, { file: b.target, sym });
  }
}
if (problems.length > 0) {
  console.error(`nothing changed; resolve these first:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

/** True when `name` of `file` is only a type (an interface or a type alias): `export type`. */
function isTypeOnly(file: string, name: string): boolean {
  const sym = moduleExports(file).get(name);
  return sym !== undefined && (sym.flags & ts.SymbolFlags.Value) === 0;
}

const edits = new Map<string, string>();
const textOf = (file: string) => edits.get(file) ?? (existsSync(file) ? readFileSync(file, 'utf8') : '');

// 1. The importers: the specifier now names the room's index.ts. Edits go from the end of a file
//    to its start so earlier offsets stay valid.
const byImporter = new Map<string, Bypass[]>();
for (const b of bypasses) byImporter.set(b.file.fileName, [...(byImporter.get(b.file.fileName) ?? []), b]);
for (const [file, list] of byImporter) {
  let text = textOf(file);
  for (const b of [...list]
    .filter((x) => x.isRewrite)
    .sort((x, y) => y.node.getStart() - x.node.getStart())) {
    const spec = b.node.moduleSpecifier as ts.StringLiteral;
    const index = join(SRC, b.room, 'index.ts');
    text = `${text.slice(0, spec.getStart() + 1)}${specifierFrom(file, index)}${text.slice(spec.getEnd() - 1)}`;
  }
  edits.set(file, text);
}

// 2. The rooms' index.ts files: one `export { ... } from './file.js'` per file, merged into an
//    existing statement of the same file when there is one.
for (const [room, names] of wanted) {
  if (names.size === 0) continue;
  const index = join(SRC, room, 'index.ts');
  let text = textOf(index);
  if (text === '')
    text = isFolderPass
      ? `/** ${room}/: what the rest of the ${roomOf(room)} room imports from this folder. */\n`
      : `/** The ${room} room's public API: what other rooms import from it. */\n`;
  const byFile = new Map<string, string[]>();
  for (const [name, { file }] of names) byFile.set(file, [...(byFile.get(file) ?? []), name]);
  for (const [file, list] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    const spec = specifierFrom(index, file);
    const items = list.map((n) => (isTypeOnly(file, n) ? `type ${n}` : n));
    const sf = ts.createSourceFile(index, text, ts.ScriptTarget.ES2022, true);
    const existing = sf.statements.find(
      (s): s is ts.ExportDeclaration =>
        ts.isExportDeclaration(s) &&
        !s.isTypeOnly &&
        s.exportClause !== undefined &&
        ts.isNamedExports(s.exportClause) &&
        s.moduleSpecifier !== undefined &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        s.moduleSpecifier.text === spec,
    );
    if (existing?.exportClause && ts.isNamedExports(existing.exportClause)) {
      const old = existing.exportClause.elements.map((e) => e.getText(sf));
      const merged = [...old, ...items];
      text = `${text.slice(0, existing.getStart(sf))}export { ${merged.join(', ')} } from '${spec}';${text.slice(existing.getEnd())}`;
    } else {
      text = `${text.trimEnd()}\nexport { ${items.join(', ')} } from '${spec}';\n`;
    }
  }
  edits.set(index, text);
}

// 3. The library entry: `export * from './room/index.js'` would now export everything the rooms
//    export to each other, so it lists the names it exported before.
{
  let text = textOf(entryFile);
  const sf = ts.createSourceFile(entryFile, text, ts.ScriptTarget.ES2022, true);
  const stars = sf.statements.filter(
    (s): s is ts.ExportDeclaration => ts.isExportDeclaration(s) && s.exportClause === undefined,
  );
  for (const s of [...stars].reverse()) {
    const spec = (s.moduleSpecifier as ts.StringLiteral).text;
    const target = resolve(SRC, spec).replace(/\.js$/, '.ts');
    const before = moduleExports(target);
    const items = [...before.keys()]
      .filter((n) => entryBefore.has(n))
      .sort((a, b) => a.localeCompare(b))
      .map((n) => ((before.get(n)!.flags & ts.SymbolFlags.Value) === 0 ? `type ${n}` : n));
    text = `${text.slice(0, s.getStart(sf))}export { ${items.join(', ')} } from '${spec}';${text.slice(s.getEnd())}`;
  }
  if (stars.length > 0) edits.set(entryFile, text);
}

const written: string[] = [];
for (const [file, text] of edits) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
  console.log(`${isDryRun ? 'would write' : 'wrote'} ${rel(file)}`);
  if (!isDryRun) writeFileSync(file, text);
  written.push(file);
}
// Biome merges the import lines that now name one index and sorts them, as `npm run format` would.
if (!isDryRun && written.length > 0) {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['check', '--write', ...written], {
    stdio: 'inherit',
  });
}
console.log(
  `${isFolderPass ? 'folders' : 'rooms'}: ${bypasses.filter((b) => b.isRewrite).length} imports now go through an index.ts; ${[...wanted.values()].reduce((n, m) => n + m.size, 0)} names added to the ${isFolderPass ? 'folders' : 'rooms'}' index.ts files`,
);
// The second pass sees the first one's files: a fresh program, in a process of its own.
if (!isFolderPass) {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite-node', 'vite-node.mjs'),
      fileURLToPath(import.meta.url),
      '--',
      '--folders',
      ...(isDryRun ? ['--dry-run'] : []),
    ],
    { stdio: 'inherit' },
  );
}
