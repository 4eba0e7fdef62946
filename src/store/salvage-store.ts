/**
 * Reading what a damaged crawl.sqlite still holds, for `tres repair` (rebuild-store.ts): from a
 * copy (the crawl folder is not touched), table by table and row by row, so that a damaged row
 * costs only itself; when the schema itself is lost, the file is read again under the first page
 * of a new store.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { normalizeUrl } from '../url/index.js';
import { STORE_FILES } from './open-files.js';
import { decodeOutlinks } from './outlinks-codec.js';
import { openDatabase, type PageRow } from './schema.js';

/** What the damaged database still gives. */
export interface Salvage {
  /** The first read error (undefined: every table read back whole). */
  damage?: string;
  meta: Map<string, string>;
  seeds?: { url: string; host: string; domain: string; added_at: number }[];
  labels: { page_id: number; url: string; is_relevant: number; labelled_at: number }[];
  checkpoint?: {
    strategy: string;
    config: string;
    after_page: number;
    saved_at: number;
    data: Buffer;
  };
  rowOf: (id: number) => PageRow | undefined;
  pageCount?: number;
  close: () => void;
}

/** Meta keys not carried over: derived data rebuilt from the new rows. */
const DERIVED_META = new Set(['outlinksIndexed', 'warcHeaderEnd', 'warcArchivedEnd']);

/**
 * Opens a copy of the database (and its WAL) read-only and reads what it can. The copy keeps the
 * crawl folder untouched and lets SQLite make the side files it needs for the WAL.
 */
export function salvageDatabase(sqlite: string): Salvage {
  const plain = salvageCopy((copy) => {
    copyFileSync(sqlite, copy);
    if (existsSync(`${sqlite}-wal`)) copyFileSync(`${sqlite}-wal`, `${copy}-wal`);
  });
  if (plain.meta.size > 0) return plain;
  // The schema itself is lost (sqlite_master outgrew page 1 when the crawl's last tables were
  // made, so its other pages sit near the end of the file a truncation takes): read the file
  // again under the schema page of a new store, whose tables have the same root pages.
  const patched = salvageCopy((copy) => writeFileSync(copy, withFreshSchema(sqlite, copy)));
  // Each part from whichever read gives it; rows are checked against pages.jsonl either way.
  const pick = <T>(a: T | undefined, b: T | undefined) => a ?? b;
  const seeds = pick(plain.seeds, patched.seeds);
  const checkpoint = pick(plain.checkpoint, patched.checkpoint);
  const pageCount = pick(plain.pageCount, patched.pageCount);
  return {
    meta: patched.meta,
    labels: plain.labels.length > 0 ? plain.labels : patched.labels,
    ...(seeds === undefined ? {} : { seeds }),
    ...(checkpoint === undefined ? {} : { checkpoint }),
    ...(pageCount === undefined ? {} : { pageCount }),
    damage: plain.damage ?? 'the meta table is lost',
    rowOf: (id) => plain.rowOf(id) ?? patched.rowOf(id),
    close: () => {
      plain.close();
      patched.close();
    },
  };
}

/**
 * The bytes of the database at `sqlite` with its first page replaced by that of a store made
 * new at `scratch` (openDatabase creates the tables in a fixed order, so every store of this
 * version has them at the same root pages) and the header made to describe the file as it is:
 * its size in pages, no free list. Rows read through it are checked against pages.jsonl.
 */
function withFreshSchema(sqlite: string, scratch: string): Buffer {
  openDatabase(scratch).close();
  const fresh = readFileSync(scratch);
  for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
  const pageSize = fresh.readUInt16BE(16);
  const damaged = readFileSync(sqlite);
  const pages = Math.ceil(damaged.length / pageSize);
  const out = Buffer.alloc(pages * pageSize);
  damaged.copy(out);
  fresh.copy(out, 0, 0, pageSize);
  out.writeUInt32BE(pages, 28); // in-header database size
  out.writeUInt32BE(0, 32); // free-list trunk page
  out.writeUInt32BE(0, 36); // free-list page count
  out.writeUInt32BE(out.readUInt32BE(24), 92); // the size is valid for this change counter
  return out;
}

/** Reads what it can from a database that `make` writes into a temporary folder. */
function salvageCopy(make: (copy: string) => void): Salvage {
  const copyDir = mkdtempSync(join(tmpdir(), 'tres-repair-'));
  const copy = join(copyDir, STORE_FILES.sqlite);
  make(copy);
  let damage: string | undefined;
  const note = (error: unknown) => {
    damage ??= error instanceof Error ? error.message : String(error);
  };
  let db: Database.Database | undefined;
  let isClosed = false;
  const close = () => {
    if (isClosed) return;
    isClosed = true;
    db?.close();
    rmSync(copyDir, { recursive: true, force: true });
  };
  const salvage: Salvage = { meta: new Map(), labels: [], rowOf: () => undefined, close };
  try {
    db = new Database(copy, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check') as { quick_check: string }[];
    if (check[0]?.quick_check !== 'ok') note(new Error(check.map((c) => c.quick_check).join('; ')));
  } catch (error) {
    note(error);
    if (db === undefined) return { ...salvage, damage: damage as string };
  }
  const open = db as Database.Database;
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      note(error);
      return undefined;
    }
  };
  const metaRows = attempt(
    () => open.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[],
  );
  if (metaRows === undefined || metaRows.length === 0) note(new Error('the meta table is lost'));
  // Values that do not parse are damage, not meta (a page read under the wrong schema).
  for (const { key, value } of metaRows ?? [])
    if (!DERIVED_META.has(key) && typeof key === 'string' && parseJson(value) !== undefined)
      salvage.meta.set(key, value);
  const seeds = attempt(() =>
    open.prepare('SELECT url, host, domain, added_at FROM seeds ORDER BY rowid').all(),
  );
  if (seeds !== undefined) {
    salvage.seeds = (seeds as NonNullable<Salvage['seeds']>).filter(
      (seed) => typeof seed.url === 'string' && normalizeUrl(seed.url) === seed.url,
    );
  }
  salvage.labels =
    attempt(
      () =>
        open
          .prepare('SELECT page_id, url, is_relevant, labelled_at FROM labels ORDER BY id')
          .all() as Salvage['labels'],
    ) ?? [];
  const checkpoint = attempt(() => open.prepare('SELECT * FROM checkpoints WHERE id = 1').get());
  if (checkpoint !== undefined) salvage.checkpoint = checkpoint as NonNullable<Salvage['checkpoint']>;
  const count = attempt(() => (open.prepare('SELECT COUNT(*) AS n FROM pages').get() as { n: number }).n);
  if (count !== undefined) salvage.pageCount = count;
  // Every row read as a whole page: a damaged row makes only itself fail.
  attempt(() => {
    for (const _ of open.prepare('SELECT * FROM pages ORDER BY id').iterate());
  });
  const byId = attempt(() => open.prepare<[number], PageRow>('SELECT * FROM pages WHERE id = ?'));
  salvage.rowOf = (id) => {
    if (byId === undefined) return undefined;
    try {
      const row = byId.get(id);
      if (row) decodeOutlinks(row.outlinks); // a BLOB overwritten in place decodes to nothing
      return row;
    } catch (error) {
      note(error);
      return undefined;
    }
  };
  return { ...salvage, ...(damage === undefined ? {} : { damage }) };
}

/** The JSON value of `text`, or undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
