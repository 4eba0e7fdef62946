/**
 * `npm run lab -- docweb grow`: closes the DocWeb's link graph round by round. Each round counts the links
 * of the built pages, plans the packages whose HTML the most-linked missing hosts point at
 * ({@link planGrowth}), appends them to the manifest, builds, and counts again. The download
 * budget covers all rounds.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDocweb, type DocwebBuildSummary } from './build.js';
import { cacheLayout, defaultCacheDir } from './cache-layout.js';
import { readHtmlContents } from './contents-index.js';
import { DocwebDb } from './docweb-db.js';
import { GROW_PLAN_DEFAULTS, type GrowCandidate, type GrowPlan, planGrowth } from './grow-plan.js';
import { countLinkGraph, type LinkGraphCounts, writeLinkGraph } from './link-graph.js';
import { DEFAULT_MANIFEST_PATH, loadManifest, type ManifestSite } from './manifest.js';
import { readAvailablePackages } from './package-lists.js';

/** Options of {@link growDocweb}. */
export interface GrowOptions {
  /** Cache folder of a built DocWeb. @default the DocWeb default cache */
  cacheDir?: string;
  /** Manifest to extend (rewritten in place). @default data/docweb/sites.json */
  manifestPath?: string;
  /** Folder of topic files, passed to the build. @default data/topics */
  topicsDir?: string;
  /** Bytes of debs all rounds may download together. @default 4e9 */
  budgetBytes?: number;
  /** Count, plan, build and count again this many times. @default 1 */
  rounds?: number;
  /** Plan only: print what would be added, change nothing. @default false */
  isDryRun?: boolean;
  /** Least distinct linked paths a package must resolve. @default 3 */
  minPaths?: number;
  /** Biggest site (pages) that may be added. @default 9000 */
  maxSitePages?: number;
  /** Progress lines. @default stderr */
  log?: (line: string) => void;
}

/** One round's numbers. */
export interface GrowRound {
  before: Omit<LinkGraphCounts, 'unservedHosts' | 'servedMissing'>;
  plan: GrowPlan;
  build?: DocwebBuildSummary;
}

/** What {@link growDocweb} did; `after` is the count after the last build. */
export interface GrowReport {
  rounds: GrowRound[];
  after?: Omit<LinkGraphCounts, 'unservedHosts' | 'servedMissing'>;
}

const slim = ({ unservedHosts: _u, servedMissing: _m, ...rest }: LinkGraphCounts) => rest;

/** Appends sites to a manifest file, keeping its other fields. */
export function appendToManifest(path: string, sites: readonly ManifestSite[]): void {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { sites: unknown[] } | unknown[];
  const list = Array.isArray(raw) ? raw : raw.sites;
  for (const s of sites) {
    const { heavy: _h, exclude: _e, excludeDirNames: _d, ...entry } = s;
    list.push(entry);
  }
  writeFileSync(path, `${JSON.stringify(raw, null, 1)}\n`);
}

/**
 * Grows the DocWeb in `cacheDir` (which must be built).
 * @throws ConfigError for a missing build or a bad manifest; TresError if apt fails.
 */
export async function growDocweb(options: GrowOptions = {}): Promise<GrowReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cacheDir = resolve(options.cacheDir ?? defaultCacheDir());
  const manifestPath = options.manifestPath ?? DEFAULT_MANIFEST_PATH;
  let budget = options.budgetBytes ?? GROW_PLAN_DEFAULTS.budgetBytes;
  const rounds = options.rounds ?? 1;
  log('reading apt package lists and Contents indexes ...');
  const [packages, contents] = await Promise.all([readAvailablePackages(), readHtmlContents()]);
  const report: GrowReport = { rounds: [] };
  let counts = countAndSave(cacheDir, 0, log);
  for (let round = 1; round <= rounds; round++) {
    const manifest = loadManifest(manifestPath);
    const plan = planGrowth(
      [...counts.unservedHosts, ...counts.servedMissing],
      contents,
      packages,
      manifest.sites,
      {
        budgetBytes: budget,
        ...(options.minPaths === undefined ? {} : { minPaths: options.minPaths }),
        ...(options.maxSitePages === undefined ? {} : { maxSitePages: options.maxSitePages }),
      },
    );
    log(`round ${round}: ${plan.chosen.length} packages fit (${(plan.plannedBytes / 1e6).toFixed(1)} MB)`);
    for (const c of plan.chosen) log(`  + ${describeCandidate(c)}`);
    for (const s of plan.skipped.slice(0, 20)) log(`  - ${describeCandidate(s.candidate)}: ${s.reason}`);
    const entry: GrowRound = { before: slim(counts), plan };
    report.rounds.push(entry);
    if (options.isDryRun || plan.chosen.length === 0) break;
    appendToManifest(
      manifestPath,
      plan.chosen.map((c) => c.site),
    );
    budget -= plan.plannedBytes;
    entry.build = await buildDocweb({
      cacheDir,
      manifestPath,
      ...(options.topicsDir ? { topicsDir: options.topicsDir } : {}),
      log,
    });
    counts = countAndSave(cacheDir, round, log);
    report.after = slim(counts);
  }
  return report;
}

function countAndSave(cacheDir: string, round: number, log: (line: string) => void): LinkGraphCounts {
  const layout = cacheLayout(cacheDir);
  const file = join(layout.root, `link-graph-${round}.json`);
  // Counting parses every page (minutes): a count written after the last build is still true.
  if (existsSync(file) && statSync(file).mtimeMs > statSync(layout.dbPath).mtimeMs) {
    log(`links: reusing ${file} (newer than the tables)`);
    return JSON.parse(readFileSync(file, 'utf8')) as LinkGraphCounts;
  }
  const db = new DocwebDb(cacheDir);
  try {
    log(`counting links of the built pages (round ${round}) ...`);
    const counts = countLinkGraph(db, { log });
    writeLinkGraph(file, counts);
    log(
      `links: ${(100 * counts.crossHostResolvedShare).toFixed(1)}% of ${counts.crossHost} cross-host links resolve; ` +
        `${counts.unservedHostCount} hosts not served`,
    );
    return counts;
  } finally {
    db.close();
  }
}

/** One line about a candidate. */
export function describeCandidate(c: GrowCandidate): string {
  return (
    `${c.site.package} -> https://${c.site.host}${c.site.prefix} (root ${c.site.rootInPackage}, ` +
    `${c.paths} linked pages, ${c.links} links, ${c.pages} pages, ${(c.sizeBytes / 1e6).toFixed(1)} MB)`
  );
}
