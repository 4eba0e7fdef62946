/**
 * The site, page and label tables of a DocWeb build, in one SQLite file (`CACHE/docweb.sqlite`).
 * Written once at the end of a build (to a temporary file, then renamed, so a half-written table
 * is never read), then opened read-only by `serve`, `sample` and the benchmark.
 *
 * ```sql
 * sites(id, package, host, prefix, dir, topic, pages, excluded_pages, excluded_trees, robots_txt)
 * pages(id, url, site_id, path, bytes)          -- url: https://host/prefix/path, normalised
 * labels(topic, page_id)                        -- one row per page relevant to a topic
 * topics(name, file, relevant_pages)
 * meta(key, value)                              -- fingerprint, built_at, manifest
 * ```
 * `sites.dir` is relative to the cache folder, so a cache can be moved.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from 'tres-crawler';
import { DOCWEB_DB_FILE } from './cache-layout.js';

/** One row of the site table. */
export interface DocwebSiteRow {
  id: number;
  package: string;
  host: string;
  prefix: string;
  /** Site root folder, relative to the cache folder (`extract/<package>/usr/share/...`). */
  dir: string;
  /** Site-level topic of the manifest (informative). */
  topic: string;
  pages: number;
  excludedPages: number;
  /** Topmost excluded folders found, relative to the site root, ending in '/' (served as 404). */
  excludedTrees: string[];
  /** Body served as the host's robots.txt instead of the package's file, if the manifest sets one. */
  robotsTxt?: string;
}

/** One row of the page table. */
export interface DocwebPageRow {
  id: number;
  url: string;
  siteId: number;
  /** Path relative to the site root. */
  path: string;
  bytes: number;
}

/** Everything a build writes. */
export interface DocwebTables {
  sites: Omit<DocwebSiteRow, 'id'>[];
  /** Pages per site, in the order of `sites`. */
  pages: { url: string; path: string; bytes: number }[][];
  /** Topic name, source file and labelling function. */
  topics: { name: string; file: string; labelOf: (url: string) => boolean }[];
  meta: Record<string, string>;
}

/** Counts after writing, for the build summary. */
export interface DocwebCounts {
  sites: number;
  pages: number;
  excludedPages: number;
  /** Relevant pages per topic name. */
  labelled: Record<string, number>;
}

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sites(id INTEGER PRIMARY KEY, package TEXT NOT NULL, host TEXT NOT NULL, prefix TEXT NOT NULL,
  dir TEXT NOT NULL, topic TEXT NOT NULL, pages INTEGER NOT NULL, excluded_pages INTEGER NOT NULL,
  excluded_trees TEXT NOT NULL, robots_txt TEXT);
CREATE TABLE pages(id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, site_id INTEGER NOT NULL, path TEXT NOT NULL,
  bytes INTEGER NOT NULL);
CREATE TABLE labels(topic TEXT NOT NULL, page_id INTEGER NOT NULL, PRIMARY KEY(topic, page_id)) WITHOUT ROWID;
CREATE TABLE topics(name TEXT PRIMARY KEY, file TEXT NOT NULL, relevant_pages INTEGER NOT NULL);
`;

/**
 * Writes the tables to `dbPath` atomically (temporary file, then rename). A URL met twice (two
 * files normalising to one URL) is kept once.
 */
export function writeDocwebDb(dbPath: string, tables: DocwebTables): DocwebCounts {
  const tmp = `${dbPath}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  const counts: DocwebCounts = { sites: 0, pages: 0, excludedPages: 0, labelled: {} };
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SCHEMA);
    const insertSite = db.prepare(
      'INSERT INTO sites(package, host, prefix, dir, topic, pages, excluded_pages, excluded_trees, robots_txt) VALUES (?,?,?,?,?,?,?,?,?)',
    );
    const insertPage = db.prepare('INSERT OR IGNORE INTO pages(url, site_id, path, bytes) VALUES (?,?,?,?)');
    const insertLabel = db.prepare('INSERT INTO labels(topic, page_id) VALUES (?,?)');
    const insertMeta = db.prepare('INSERT INTO meta(key, value) VALUES (?,?)');
    for (const t of tables.topics) counts.labelled[t.name] = 0;
    db.transaction(() => {
      tables.sites.forEach((site, i) => {
        const pages = tables.pages[i] ?? [];
        let kept = 0;
        const siteId = Number(
          insertSite.run(
            site.package,
            site.host,
            site.prefix,
            site.dir,
            site.topic,
            0,
            site.excludedPages,
            JSON.stringify(site.excludedTrees),
            site.robotsTxt ?? null,
          ).lastInsertRowid,
        );
        for (const page of pages) {
          const r = insertPage.run(page.url, siteId, page.path, page.bytes);
          if (r.changes === 0) continue;
          kept++;
          const pageId = Number(r.lastInsertRowid);
          for (const t of tables.topics) {
            if (!t.labelOf(page.url)) continue;
            insertLabel.run(t.name, pageId);
            counts.labelled[t.name] = (counts.labelled[t.name] ?? 0) + 1;
          }
        }
        db.prepare('UPDATE sites SET pages = ? WHERE id = ?').run(kept, siteId);
        counts.sites++;
        counts.pages += kept;
        counts.excludedPages += site.excludedPages;
      });
      const insertTopic = db.prepare('INSERT INTO topics(name, file, relevant_pages) VALUES (?,?,?)');
      for (const t of tables.topics) insertTopic.run(t.name, t.file, counts.labelled[t.name] ?? 0);
      for (const [key, value] of Object.entries(tables.meta)) insertMeta.run(key, value);
    })();
    db.exec('CREATE INDEX pages_site ON pages(site_id)');
  } finally {
    db.close();
  }
  renameSync(tmp, dbPath);
  return counts;
}

/** Read-only access to a built DocWeb's tables. */
export class DocwebDb {
  private readonly db: Database.Database;
  /** The cache folder the database belongs to (site folders are relative to it). */
  readonly cacheDir: string;

  /**
   * Opens `CACHE/docweb.sqlite` read-only.
   * @throws ConfigError if the cache holds no finished build (run `npm run lab -- docweb build`).
   */
  constructor(cacheDir: string, dbPath = join(cacheDir, DOCWEB_DB_FILE)) {
    if (!existsSync(dbPath)) {
      throw new ConfigError(
        `no DocWeb build in ${cacheDir} (missing ${dbPath}); run \`npm run lab -- docweb build --cache ${cacheDir}\` first`,
        { context: { file: dbPath } },
      );
    }
    this.cacheDir = cacheDir;
    this.db = new Database(dbPath, { readonly: true, fileMustExist: true });
  }

  /** Every site, in manifest order. */
  sites(): DocwebSiteRow[] {
    const rows = this.db.prepare('SELECT * FROM sites ORDER BY id').all() as Record<string, unknown>[];
    return rows.map((r) => ({
      id: r.id as number,
      package: r.package as string,
      host: r.host as string,
      prefix: r.prefix as string,
      dir: r.dir as string,
      topic: r.topic as string,
      pages: r.pages as number,
      excludedPages: r.excluded_pages as number,
      excludedTrees: JSON.parse(r.excluded_trees as string) as string[],
      ...(typeof r.robots_txt === 'string' ? { robotsTxt: r.robots_txt } : {}),
    }));
  }

  /** Absolute root folder of a site. */
  siteDir(site: DocwebSiteRow): string {
    return isAbsolute(site.dir) ? site.dir : join(this.cacheDir, site.dir);
  }

  /** Every page, ordered by id (manifest order, then path). */
  pages(): DocwebPageRow[] {
    return this.db
      .prepare('SELECT id, url, site_id AS siteId, path, bytes FROM pages ORDER BY id')
      .all() as DocwebPageRow[];
  }

  /** The page with this URL (as stored: normalised, https), or undefined. */
  pageByUrl(url: string): DocwebPageRow | undefined {
    return this.db
      .prepare('SELECT id, url, site_id AS siteId, path, bytes FROM pages WHERE url = ?')
      .get(url) as DocwebPageRow | undefined;
  }

  /** Relevant page count per topic, as labelled at build time. */
  labelCounts(): Record<string, number> {
    const rows = this.db.prepare('SELECT name, relevant_pages AS n FROM topics ORDER BY name').all() as {
      name: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.n]));
  }

  /** A value of the meta table. */
  meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}
