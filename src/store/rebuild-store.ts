/**
 * `tres repair`: a crawl.sqlite that is damaged (truncated, overwritten: "database disk image is
 * malformed") rebuilt from the files beside it, which hold every recorded page: `pages.jsonl` has
 * one line per row (written before the row commits) and `pages.warc.gz` every response.
 *
 * What the damaged file still gives is kept (salvage-store.ts): its meta (the crawl's config,
 * which `--resume` needs), seeds, labels, the strategy's checkpoint, and every page row that reads back whole and
 * agrees with its JSONL line (outlinks with their anchor scores and contexts, fingerprints). A
 * row that is lost is rebuilt from its JSONL line, its WARC offsets from a scan of the WARC
 * file, and its outlinks and fingerprint by parsing its stored response again
 * ({@link PageRereader}, supplied by the crawl layer, which knows how the crawl reads links).
 *
 * Nothing is deleted: the damaged file (and its WAL) is renamed aside, the new database is
 * written under a temporary name and renamed into place only when complete, and pages.jsonl and
 * pages.warc.gz are not touched (a torn tail in them is cut by the next `--resume`, as after a
 * kill). A folder whose JSONL or WARC file is damaged before its end is refused: a resume would
 * cut it back to the rows rebuilt.
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { type Clock, ConfigError, systemClock, TresError } from '../common/index.js';
import type { ContentFingerprint } from '../text/index.js';
import type { DiscoveredLink } from '../types/index.js';
import { normalizeUrl } from '../url/index.js';
import { decodeCheckpoint } from './checkpoint-codec.js';
import { simhashToHex } from './duplicate-index.js';
import type { JsonlPage } from './jsonl-line.js';
import { STORE_FILES, storePaths } from './open-files.js';
import { encodeOutlinks } from './outlinks-codec.js';
import { readWarcResponse, type WarcResponse } from './page-text.js';
import { CrawlReader } from './read-crawl.js';
import { parseJson, type Salvage, salvageDatabase } from './salvage-store.js';
import { INSERT_PAGE_SQL, openDatabase, type PageRow, pageParams, STORE_VERSION } from './schema.js';
import { readWarcinfoFields, scanWarc, WARCINFO_CONFIG_FIELD, type WarcEntry } from './warc-scan.js';

/** A recorded page whose row is rebuilt, as its JSONL line gives it. */
export interface RereadPage {
  id: number;
  url: string;
  finalUrl: string;
  depth: number;
  parentUrl?: string;
}

/** Reads a page's outlinks and fingerprint again from its stored response, as the crawl did. */
export interface PageRereader {
  /**
   * @param isKnown true for URLs recorded before this page (the crawl left them out of its
   *   outlinks: they were fetched or in flight)
   */
  reread(
    page: RereadPage,
    response: WarcResponse,
    isKnown: (url: string) => boolean,
  ): Promise<{ outlinks: DiscoveredLink[]; fingerprint?: ContentFingerprint }>;
}

/** Options of {@link rebuildStore}; every field is optional. */
export interface RebuildStoreOptions {
  /**
   * Makes the rereader from the crawl's stored config (meta `config`; undefined when the damaged
   * file lost it). @default none: rebuilt rows get no outlinks and no fingerprint
   */
  rereaderFor?: (config: Record<string, unknown> | undefined) => Promise<PageRereader | undefined>;
  /** Rebuild even a store that reads back whole. @default false */
  isForced?: boolean;
  /** @default systemClock */
  clock?: Clock;
}

/** What {@link rebuildStore} found and did. */
export interface RebuildResult {
  /** `healthy`: nothing was changed. */
  status: 'healthy' | 'rebuilt';
  /** Why the old file was judged damaged (SQLite's message), when it was. */
  damage?: string;
  /** Where the old crawl.sqlite was kept (undefined when there was none). */
  keptAs?: string;
  pages: number;
  /** Rows read back whole from the damaged file. */
  salvagedRows: number;
  /** Rows rebuilt from pages.jsonl and pages.warc.gz, and those of them with outlinks re-read. */
  rebuiltRows: number;
  rereadRows: number;
  seeds: number;
  /** `store`: the damaged file's seeds; `pages`: the depth-0 pages (seeds never fetched are lost). */
  seedsFrom: 'store' | 'pages';
  hasConfig: boolean;
  /** Where the config came from: the old file's meta, or the WARC's warcinfo record. */
  configFrom?: 'store' | 'warc';
  /** The strategy checkpoint kept, by the id of the last page it reflects; undefined: none. */
  checkpointAfterPage?: number;
  labels: number;
  /** Bytes after the last whole line / record, left for the next resume to cut. */
  tornBytes: { jsonl: number; warc: number };
}

/** Exit codes of `tres repair` when it cannot rebuild (sysexits.h: EX_NOINPUT, EX_DATAERR). */
export const REPAIR_EXIT_CODES = Object.freeze({ noSource: 66, sourceDamaged: 65 });

/** `tres repair` cannot rebuild: the error says which file and what to do. */
export class RepairError extends TresError {
  readonly exitCode: number;

  constructor(kind: keyof typeof REPAIR_EXIT_CODES, message: string, file: string, cause?: unknown) {
    super(kind === 'noSource' ? 'TRES_REPAIR_NO_SOURCE' : 'TRES_REPAIR_SOURCE_DAMAGED', message, {
      cause,
      context: { file },
    });
    this.exitCode = REPAIR_EXIT_CODES[kind];
  }
}

/**
 * Rebuilds crawl.sqlite in `dir` (see the module comment), or leaves a store that reads back
 * whole as it is (`status: 'healthy'`, unless `isForced`).
 * @throws RepairError when pages.jsonl is missing or pages.jsonl / pages.warc.gz is damaged
 *   before its end; ConfigError when a running crawl holds the folder.
 */
export async function rebuildStore(dir: string, options: RebuildStoreOptions = {}): Promise<RebuildResult> {
  const clock = options.clock ?? systemClock;
  const paths = storePaths(dir);
  if (!existsSync(paths.jsonl)) {
    throw new RepairError(
      'noSource',
      `${paths.jsonl} is missing: tres repair rebuilds crawl.sqlite from it (and ${STORE_FILES.warc}); without it there is nothing to rebuild from`,
      paths.jsonl,
    );
  }
  refuseRunningCrawl(dir);
  const lines = readJsonl(paths.jsonl);
  const salvage = existsSync(paths.sqlite) ? salvageDatabase(paths.sqlite) : undefined;
  try {
    if (salvage && salvage.damage === undefined && !options.isForced) {
      return {
        status: 'healthy',
        pages: salvage.pageCount ?? 0,
        salvagedRows: 0,
        rebuiltRows: 0,
        rereadRows: 0,
        seeds: salvage.seeds?.length ?? 0,
        seedsFrom: 'store',
        hasConfig: salvage.meta.has('config'),
        labels: salvage.labels.length,
        tornBytes: { jsonl: lines.tornBytes, warc: 0 },
      };
    }
    const warc = existsSync(paths.warc) ? await scanWarc(paths.warc) : undefined;
    if (warc?.damagedAt) {
      throw new RepairError(
        'sourceDamaged',
        `${paths.warc} cannot be read past byte ${warc.damagedAt.offset} of ${warc.size} (${warc.damagedAt.reason}); tres repair left every file as it was, since a resume would cut the file back there: copy the folder and repair the copy with the WARC cut at that byte, or start a new crawl with --out`,
        paths.warc,
      );
    }
    const meta = salvage?.meta ?? new Map<string, string>();
    // A meta table lost with the old file: the config the crawl started with is in the WARC.
    const info = warc?.records[0]?.type === 'warcinfo' ? warc.records[0] : undefined;
    const infoConfig =
      info && readWarcinfoFields(paths.warc, info.start, info.end).get(WARCINFO_CONFIG_FIELD);
    const configFrom = meta.has('config')
      ? 'store'
      : infoConfig && parseJson(infoConfig)
        ? 'warc'
        : undefined;
    if (configFrom === 'warc') meta.set('config', infoConfig as string);
    const configText = meta.get('config');
    const config = configText === undefined ? undefined : (JSON.parse(configText) as Record<string, unknown>);
    const rereader = await options.rereaderFor?.(config);
    // A row records the version of the judge that scored it; 0 unless feedback swapped judges.
    const judgeVersion = meta.has('judgeVersion') ? null : 0;
    const built = await buildRows(lines.pages, warc, paths.warc, salvage, rereader, judgeVersion);
    const tmp = `${paths.sqlite}.rebuilding`;
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(tmp + suffix, { force: true });
    const lastId = built.rows.length;
    const checkpoint = salvage?.checkpoint && keepCheckpoint(salvage.checkpoint, lastId);
    const seeds =
      salvage?.seeds ??
      built.rows
        .filter((r) => r.depth === 0)
        .map((r) => ({ url: r.url, host: r.host, domain: r.domain, added_at: r.fetched_at }));
    const labels = (salvage?.labels ?? []).filter((l) => l.page_id <= lastId);
    const now = clock.now();
    writeDatabase(tmp, {
      meta,
      overrides: {
        storeVersion: meta.has('storeVersion') ? undefined : STORE_VERSION,
        startedAt: meta.has('startedAt') ? undefined : (built.rows[0]?.fetched_at ?? now),
        status: meta.has('status') ? undefined : 'interrupted',
        warcHeaderEnd: built.warcHeaderEnd,
        warcArchivedEnd: built.warcArchivedEnd,
        repairedAt: [...((parseJson(meta.get('repairedAt')) as number[] | undefined) ?? []), now],
      },
      seeds,
      rows: built.rows,
      labels,
      checkpoint,
    });
    salvage?.close();
    const keptAs = existsSync(paths.sqlite) ? moveAside(paths.sqlite, now) : undefined;
    renameSync(tmp, paths.sqlite);
    return {
      status: 'rebuilt',
      ...(salvage?.damage === undefined ? {} : { damage: salvage.damage }),
      ...(keptAs === undefined ? {} : { keptAs }),
      pages: lastId,
      salvagedRows: built.salvaged,
      rebuiltRows: lastId - built.salvaged,
      rereadRows: built.reread,
      seeds: seeds.length,
      seedsFrom: salvage?.seeds ? 'store' : 'pages',
      hasConfig: config !== undefined,
      ...(configFrom ? { configFrom } : {}),
      ...(checkpoint ? { checkpointAfterPage: checkpoint.after_page } : {}),
      labels: labels.length,
      tornBytes: { jsonl: lines.tornBytes, warc: warc ? warc.size - warc.validEnd : 0 },
    };
  } finally {
    salvage?.close();
  }
}

/** @throws ConfigError when a running crawl holds the folder's store. */
function refuseRunningCrawl(dir: string): void {
  if (!existsSync(storePaths(dir).sqlite)) return;
  try {
    CrawlReader.open(dir).close();
  } catch (error) {
    if (error instanceof ConfigError && error.context.isLocked === true) {
      throw new ConfigError(
        `${dir} is being written by a running tres crawl; stop it first (Ctrl-C), then run tres repair ${dir}`,
        { cause: error, context: { file: storePaths(dir).sqlite, isLocked: true } },
      );
    }
    // Any other error is the damage this command is for.
  }
}

/** The whole lines of pages.jsonl, each with the file length after it. */
function readJsonl(path: string): { pages: (JsonlPage & { jsonlEnd: number })[]; tornBytes: number } {
  const bytes = readFileSync(path);
  const pages: (JsonlPage & { jsonlEnd: number })[] = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) break;
    const lineNumber = pages.length + 1;
    let page: JsonlPage;
    try {
      page = JSON.parse(bytes.toString('utf8', at, end)) as JsonlPage;
    } catch (cause) {
      throw damagedJsonl(path, lineNumber, 'not JSON', cause);
    }
    if (page.id !== lineNumber || typeof page.url !== 'string') {
      throw damagedJsonl(path, lineNumber, `id ${String(page.id)} where ${lineNumber} was expected`);
    }
    at = end + 1;
    pages.push({ ...page, jsonlEnd: at });
  }
  return { pages, tornBytes: bytes.length - at };
}

function damagedJsonl(path: string, line: number, why: string, cause?: unknown): RepairError {
  return new RepairError(
    'sourceDamaged',
    `${path} is damaged at line ${line} (${why}); tres repair left every file as it was, since a resume would cut the file back there: fix or remove that line in a copy of the folder and repair the copy`,
    path,
    cause,
  );
}

/** The rows of the new store, in id order, and the WARC ends for its meta. */
async function buildRows(
  pages: (JsonlPage & { jsonlEnd: number })[],
  warc: Awaited<ReturnType<typeof scanWarc>> | undefined,
  warcPath: string,
  salvage: Salvage | undefined,
  rereader: PageRereader | undefined,
  judgeVersion: number | null,
): Promise<{
  rows: PageRow[];
  salvaged: number;
  reread: number;
  warcHeaderEnd: number;
  warcArchivedEnd: number;
}> {
  const records = warc?.records ?? [];
  let next = 0; // index of the first record not given to a row
  const warcHeaderEnd = records[0]?.type === 'warcinfo' ? records[0].end : 0;
  if (warcHeaderEnd > 0) next = 1;
  let warcEnd = warcHeaderEnd;
  let warcArchivedEnd = 0;
  const known = new Set<string>();
  const hashes = new Map<number, string | null>();
  const rows: PageRow[] = [];
  let salvaged = 0;
  let reread = 0;
  for (const page of pages) {
    // Its response: the next page response, past responses archived without a row (sitemaps).
    let record: WarcEntry | undefined;
    for (let k = next; k < records.length; k++) {
      const r = records[k]!;
      if (r.type !== 'response') continue;
      if (!r.isPage) {
        warcArchivedEnd = r.end;
        continue;
      }
      if (matches(r.targetUri, page)) {
        record = r;
        next = k + 1;
        // A rendered page's document (its conversion record) follows its response: the page's too.
        const after = records[next];
        if (after?.type === 'conversion' && after.targetUri === r.targetUri) {
          record = { ...r, end: after.end };
          next++;
        }
      }
      break; // a page's response of another URL belongs to a later row
    }
    if (record) warcEnd = record.end;
    const old = salvage?.rowOf(page.id);
    let row: PageRow;
    if (old && old.url === page.url) {
      row = { ...old };
      salvaged++;
    } else {
      row = rowFromLine(page, judgeVersion);
      if (record && page.isPage && rereader) {
        const response = readWarcResponse(warcPath, record.start, record.end);
        if (response) {
          const found = await rereader.reread(page, response, (url) => known.has(url));
          const original = page.duplicateOf === undefined ? undefined : hashes.get(page.duplicateOf);
          // An exact copy's links are the original's: the crawl kept none (crawler.ts, commit).
          const isExactCopy = original != null && original === found.fingerprint?.exact;
          row.outlinks = found.outlinks.length && !isExactCopy ? encodeOutlinks(found.outlinks) : null;
          if (found.fingerprint) {
            row.content_hash = found.fingerprint.exact;
            row.simhash = simhashToHex(found.fingerprint.simhash);
          }
          reread++;
        }
      }
    }
    row.warc_end = warc ? warcEnd : null;
    row.jsonl_end = page.jsonlEnd;
    hashes.set(row.id, row.content_hash);
    known.add(row.url).add(row.final_url);
    rows.push(row);
  }
  // Responses archived after the last row (sitemaps) are kept; page responses without a row (a
  // JSONL line that was never written) are cut by the next resume.
  for (let k = next; k < records.length; k++) {
    const r = records[k]!;
    if (r.type === 'response' && !r.isPage) warcArchivedEnd = r.end;
  }
  return { rows, salvaged, reread, warcHeaderEnd, warcArchivedEnd: Math.max(0, warcArchivedEnd) };
}

/** True if a WARC record of `targetUri` is the response of `page` (its final URL, as fetched). */
function matches(targetUri: string, page: JsonlPage): boolean {
  if (targetUri === page.finalUrl || targetUri === page.url) return true;
  const normal = normalizeUrl(targetUri);
  return normal === page.finalUrl || normal === page.url;
}

/**
 * A row as the JSONL line gives it, with the columns the crawl records (schema.ts's
 * `pageParams`); what the line does not hold is null, filled in by the caller.
 */
function rowFromLine(page: JsonlPage, judgeVersion: number | null): PageRow {
  const { fetchedAt, ...fields } = page;
  const record = { ...fields, fetchedAt: Date.parse(fetchedAt) };
  return pageParams(judgeVersion === null ? record : { ...record, judgeVersion }, null, null);
}

/** The salvaged checkpoint if it reflects pages the new store holds and its bytes decode. */
function keepCheckpoint(
  checkpoint: NonNullable<Salvage['checkpoint']>,
  lastId: number,
): NonNullable<Salvage['checkpoint']> | undefined {
  if (checkpoint.after_page > lastId) return undefined;
  try {
    decodeCheckpoint(checkpoint.data);
    return checkpoint;
  } catch {
    return undefined;
  }
}

/** Writes the new database at `path` in one transaction and closes it with its WAL folded in. */
function writeDatabase(
  path: string,
  data: {
    meta: Map<string, string>;
    overrides: Record<string, unknown>;
    seeds: { url: string; host: string; domain: string; added_at: number }[];
    rows: PageRow[];
    labels: Salvage['labels'];
    checkpoint: Salvage['checkpoint'] | undefined;
  },
): void {
  const db = openDatabase(path);
  try {
    const setMeta = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    const insertSeed = db.prepare(
      'INSERT OR IGNORE INTO seeds (url, host, domain, added_at) VALUES (?, ?, ?, ?)',
    );
    const insertPage = db.prepare(INSERT_PAGE_SQL);
    const insertLabel = db.prepare(
      'INSERT INTO labels (page_id, url, is_relevant, labelled_at) VALUES (?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (const [key, value] of data.meta) setMeta.run(key, value);
      for (const [key, value] of Object.entries(data.overrides))
        if (value !== undefined) setMeta.run(key, JSON.stringify(value));
      for (const s of data.seeds) insertSeed.run(s.url, s.host, s.domain, s.added_at);
      for (const row of data.rows) insertPage.run({ warc_file: null, warc_file_start: null, ...row });
      for (const l of data.labels) insertLabel.run(l.page_id, l.url, l.is_relevant, l.labelled_at);
      const c = data.checkpoint;
      if (c) {
        db.prepare(
          'INSERT INTO checkpoints (id, strategy, config, after_page, saved_at, data) VALUES (1, ?, ?, ?, ?, ?)',
        ).run(c.strategy, c.config, c.after_page, c.saved_at, c.data);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
}

/** Renames the damaged database and its side files aside; returns the new name. */
function moveAside(sqlite: string, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let aside = `${sqlite}.damaged-${stamp}`;
  for (let n = 2; existsSync(aside); n++) aside = `${sqlite}.damaged-${stamp}-${n}`;
  // The WAL first: SQLite finds it by name, and the new database must not pick it up.
  for (const suffix of ['-wal', '-shm', '-journal']) {
    if (existsSync(sqlite + suffix)) renameSync(sqlite + suffix, aside + suffix);
  }
  renameSync(sqlite, aside);
  return aside;
}
