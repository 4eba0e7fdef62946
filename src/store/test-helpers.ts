/** Fixtures shared by the store's tests and its kill-test child (not part of the build). */
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WARCParser } from 'warcio';
import type { DiscoveredLink } from '../types/index.js';
import type { PageRecord } from './types.js';
import type { WarcPayload } from './warc-record.js';

const tempDirs: string[] = [];

/** A fresh empty folder under the OS temp folder (removed by {@link removeTempDirs}). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tres-store-'));
  tempDirs.push(dir);
  return dir;
}

/** Removes the folders {@link tempDir} made in this process. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The URLs a crawl folder's store recorded, in fetch order. */
export function fetchedUrls(dir: string): string[] {
  const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT url FROM pages ORDER BY id').all() as { url: string }[]).map((r) => r.url);
  } finally {
    db.close();
  }
}

/** URL of the i-th test page: hosts a0..a4.example, so domains repeat. */
export function pageUrl(i: number): string {
  return `https://a${i % 5}.example/page/${i}?q=${i}`;
}

/** `count` outlinks of page i. */
export function testLinks(i: number, count: number): DiscoveredLink[] {
  return Array.from({ length: count }, (_, k) => ({
    url: `https://b${k % 7}.example/from/${i}/link/${k}`,
    host: `b${k % 7}.example`,
    domain: `b${k % 7}.example`,
    anchorText: `anchor ${k}, "quoted" text`,
    depth: 2,
  }));
}

/** The record of the i-th test page: every third page is relevant, every fourth a failure. */
export function testRecord(i: number, outlinks = 3): PageRecord {
  const isFailure = i % 4 === 3;
  const url = pageUrl(i);
  return {
    url,
    finalUrl: i % 6 === 1 ? `${url}&redirected=1` : url,
    status: isFailure ? 0 : 200,
    contentType: isFailure ? undefined : 'text/html; charset=utf-8',
    host: new URL(url).host,
    domain: new URL(url).host,
    depth: 1 + (i % 3),
    parentUrl: i === 0 ? undefined : pageUrl(i - 1),
    anchorText: `to page ${i}`,
    reward: i % 3 === 0 && !isFailure ? 1 : 0,
    probability: isFailure ? 0 : i % 3 === 0 ? 0.875 : 0.125,
    title: isFailure ? undefined : `Title, "${i}"\nsecond line`,
    errorCode: isFailure ? 'TRES_DNS' : undefined,
    fetchedAt: 1_700_000_000_000 + i * 1000,
    durationMs: 12.5,
    bytes: isFailure ? undefined : 100 + i,
    outlinks: isFailure ? [] : testLinks(i, outlinks),
  };
}

/** The body of the i-th test page, `bytes` long. */
export function testBody(i: number, bytes = 2000): Buffer {
  const text = `<html><title>page ${i}</title><body>${'lorem ipsum dolor '.repeat(Math.ceil(bytes / 18))}`;
  return Buffer.from(text.slice(0, bytes), 'utf8');
}

/** The WARC payload of the i-th test page (undefined for failures, which have no response). */
export function testPayload(i: number, bodyBytes = 2000): { warc?: WarcPayload } {
  if (i % 4 === 3) return {};
  return {
    warc: {
      url: pageUrl(i),
      requestHeaders: { 'User-Agent': 'tres-test', Accept: 'text/html' },
      statusLine: 'HTTP/1.1 200 OK',
      responseHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Encoding': 'gzip' },
      body: testBody(i, bodyBytes),
      remoteIp: '127.0.0.1',
      fetchDate: 1_700_000_000_000 + i * 1000,
    },
  };
}

/** A WARC record read back by warcio, with its raw content (HTTP payload for requests/responses). */
export interface ReadRecord {
  type: string | null;
  headers: Map<string, string>;
  httpStatus: number | undefined;
  httpHeaders: Map<string, string>;
  payload: Buffer;
}

/** Header pairs as a map of lower-case names; repeated headers joined with ', '. */
function toMap(headers: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of headers as Iterable<[string, string]>) {
    const key = name.toLowerCase();
    map.set(key, map.has(key) ? `${map.get(key)}, ${value}` : value);
  }
  return map;
}

/** Every record of a WARC file, read with warcio's parser (each record's payload read fully). */
export async function readWarc(path: string): Promise<ReadRecord[]> {
  const records: ReadRecord[] = [];
  for await (const record of new WARCParser(createReadStream(path))) {
    const payload = Buffer.from(await record.readFully(false));
    records.push({
      type: record.warcType ?? null,
      headers: toMap(record.warcHeaders.headers),
      httpStatus: record.httpHeaders ? Number(record.httpHeaders.statusCode) : undefined,
      httpHeaders: toMap(record.httpHeaders?.headers ?? []),
      payload,
    });
  }
  return records;
}

/** The lines of a JSONL file, parsed. */
export function readJsonl(path: string): Array<Record<string, unknown>> {
  const text = readFileSync(path, 'utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`${path} does not end with a newline`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line));
}
