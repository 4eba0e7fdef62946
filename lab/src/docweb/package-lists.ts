/**
 * Debian's package metadata, read with apt's own tools: `apt-cache dumpavail` (every binary
 * package of the configured archive at its candidate version), the English translations
 * (`Translation-en`, long descriptions) and the Contents indexes (which package ships which file),
 * both decompressed by `apt-helper cat-file`. apt is told to fetch the translations and Contents
 * files when they are missing (`apt-get update -o Acquire::Languages=en`, apt-file's targets).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TresError } from 'tres-crawler';
import { type CommandRunner, runCommand } from './apt.js';
import { compareDebianVersions } from './debian-version.js';

/** One binary package as apt lists it (the fields DocWeb uses). */
export interface PackageInfo {
  package: string;
  version: string;
  /** Source package name (the binary name when apt lists none). */
  source: string;
  section: string;
  /** Download size of the deb, bytes. */
  sizeBytes: number;
  /** Installed size, kilobytes (apt's unit). */
  installedKb: number;
  homepage?: string;
  /** Short description (the first line of Description). */
  summary: string;
  /** debtags, e.g. `devel::lang:python`. */
  tags: string[];
  depends: string[][];
  recommends: string[][];
  suggests: string[][];
  /** `Description-md5`, the key of the long description in Translation-en. */
  descriptionMd5?: string;
}

/** Splits a control file (Packages, Translation) into stanzas of field -> value (continuations kept). */
export function parseStanzas(text: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  let current = new Map<string, string>();
  let field = '';
  for (const line of text.split('\n')) {
    if (line === '') {
      if (current.size > 0) out.push(current);
      current = new Map();
      field = '';
      continue;
    }
    if ((line[0] === ' ' || line[0] === '\t') && field) {
      current.set(field, `${current.get(field)}\n${line}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    field = line.slice(0, colon);
    current.set(field, line.slice(colon + 1).trim());
  }
  if (current.size > 0) out.push(current);
  return out;
}

/**
 * A relation field (`Depends: a (>= 1) | b, c`) as alternatives of package names: `[[a, b], [c]]`.
 * Versions and architecture qualifiers are dropped.
 */
export function parseRelations(value: string | undefined): string[][] {
  if (!value) return [];
  return value
    .split(',')
    .map((group) =>
      group
        .split('|')
        .map((alt) => alt.trim().split(/[\s(:[]/)[0] ?? '')
        .filter((name) => /^[a-z0-9][a-z0-9+.-]+$/.test(name)),
    )
    .filter((group) => group.length > 0);
}

/**
 * Packages of a `dumpavail`-style text. apt lists a package once per archive that has it (e.g.
 * bookworm and bookworm-security); the stanza with the highest version is kept, so the hub does
 * not depend on the order apt lists them in, and a kept stanza without a `Tag:` field (the
 * -security and -updates archives carry no debtags) takes the tags of the newest stanza of the
 * same package that has them. Stanzas of equal versions: the first one kept.
 */
export function parsePackages(text: string): Map<string, PackageInfo> {
  const newest = new Map<string, Map<string, string>>();
  const tagged = new Map<string, Map<string, string>>();
  const newer = (s: Map<string, string>, than: Map<string, string> | undefined): boolean =>
    than === undefined || compareDebianVersions(s.get('Version') ?? '', than.get('Version') ?? '') > 0;
  for (const s of parseStanzas(text)) {
    const name = s.get('Package');
    if (!name) continue;
    if (newer(s, newest.get(name))) newest.set(name, s);
    if (s.has('Tag') && newer(s, tagged.get(name))) tagged.set(name, s);
  }
  const out = new Map<string, PackageInfo>();
  for (const [name, s] of newest) {
    const description = s.get('Description') ?? '';
    const homepage = s.get('Homepage');
    const md5 = s.get('Description-md5');
    const tag = s.get('Tag') ?? tagged.get(name)?.get('Tag') ?? '';
    out.set(name, {
      package: name,
      version: s.get('Version') ?? '',
      source: (s.get('Source') ?? name).split(' ')[0] ?? name,
      section: s.get('Section') ?? 'misc',
      sizeBytes: Number(s.get('Size') ?? 0),
      installedKb: Number(s.get('Installed-Size') ?? 0),
      ...(homepage ? { homepage } : {}),
      summary: description.split('\n')[0]?.trim() ?? '',
      tags: tag
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      depends: parseRelations(s.get('Depends') ?? s.get('Pre-Depends')),
      recommends: parseRelations(s.get('Recommends')),
      suggests: parseRelations(s.get('Suggests')),
      ...(md5 ? { descriptionMd5: md5 } : {}),
    });
  }
  return out;
}

/** apt's binary package lists (`..._binary-amd64_Packages.lz4` and the like). */
const PACKAGES_LIST = /_binary-[a-z0-9]+_Packages(\.[a-z0-9]+)?$/;

/**
 * Every binary package apt knows (`apt-cache dumpavail`, which prints each package's candidate
 * stanza), with the stanzas of apt's binary Packages lists in `listsDir` beside it: when the
 * candidate comes from bookworm-security or -updates, whose lists carry no `Tag:` field, its
 * debtags come from the release's stanza (see {@link parsePackages}). Without list files the
 * packages are dumpavail's alone.
 * @throws TresError (TRES_DOCWEB_APT) if apt-cache or apt-helper fails.
 */
export async function readAvailablePackages(
  run: CommandRunner = runCommand,
  listsDir = '/var/lib/apt/lists',
): Promise<Map<string, PackageInfo>> {
  const r = await run('apt-cache', ['dumpavail']);
  if (r.code !== 0)
    throw new TresError(
      'TRES_DOCWEB_APT',
      `apt-cache dumpavail failed (exit ${r.code}): ${r.stderr.slice(-300)}`,
    );
  const lists = await catAptFiles(aptListFiles(listsDir, PACKAGES_LIST), run);
  return parsePackages(`${r.stdout}\n\n${lists}`);
}

/** apt list files whose name ends with `suffix` (e.g. `_main_Contents-all.lz4`), sorted. */
export function aptListFiles(listsDir: string, pattern: RegExp): string[] {
  try {
    return readdirSync(listsDir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => join(listsDir, name));
  } catch {
    return [];
  }
}

/**
 * The decompressed text of apt list files (`apt-helper cat-file` knows apt's compressions).
 * @throws TresError (TRES_DOCWEB_APT) if apt-helper fails.
 */
export async function catAptFiles(
  files: readonly string[],
  run: CommandRunner = runCommand,
): Promise<string> {
  const parts: string[] = [];
  for (const file of files) {
    const r = await run('/usr/lib/apt/apt-helper', ['cat-file', file]);
    if (r.code !== 0)
      throw new TresError('TRES_DOCWEB_APT', `apt-helper cat-file ${file} failed: ${r.stderr.slice(-300)}`);
    parts.push(r.stdout);
  }
  return parts.join('\n');
}

/**
 * Long English descriptions by `Description-md5` from apt's Translation-en files; runs
 * `apt-get update -o Acquire::Languages=en` first if they are missing (this machine's apt is set
 * to fetch no translations).
 * @throws TresError (TRES_DOCWEB_APT) if apt fails.
 */
export async function readTranslations(
  listsDir = '/var/lib/apt/lists',
  run: CommandRunner = runCommand,
  log: (line: string) => void = () => {},
): Promise<Map<string, string>> {
  const pattern = /_i18n_Translation-en(\.[a-z0-9]+)?$/;
  let files = aptListFiles(listsDir, pattern);
  if (files.length === 0) {
    log('apt-get update -o Acquire::Languages=en (English package descriptions missing) ...');
    const r = await run('apt-get', ['update', '-o', 'Acquire::Languages=en']);
    if (r.code !== 0)
      throw new TresError('TRES_DOCWEB_APT', `apt-get update failed: ${r.stderr.slice(-300)}`);
    files = aptListFiles(listsDir, pattern);
  }
  const out = new Map<string, string>();
  for (const s of parseStanzas(await catAptFiles(files, run))) {
    const md5 = s.get('Description-md5');
    const text = s.get('Description-en');
    if (md5 && text && !out.has(md5)) out.set(md5, text);
  }
  return out;
}
