/**
 * A resume of a crawl that fetched no page starts it again. A first crawl that failed (the
 * sandbox without --allow-loopback, a host that needs --resolve) recorded only failures; a resume
 * never fetches a recorded URL twice, so `--resume DIR --allow-loopback` would end with the same
 * failures. Nothing of value is in such a folder, so the resume removes its store and crawls
 * again from the stored seeds with the options of this run, saying so.
 *
 * A crawl that did fetch pages is resumed as always; seeds of it that failed for a reason a
 * network option fixes are named, with the way to fetch them.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { storePaths, withCrawlReader } from '../store/index.js';
import type { CrawlPlan } from './crawl-plan.js';
import { LEGACY_OPTIONS_FILE } from './crawl-plan.js';
import { countOf } from './crawl-report.js';

/** Failure codes that --allow-loopback, --resolve or the network fix (crawl-report.ts has hints). */
export const NETWORK_FAILURES: ReadonlySet<string> = new Set([
  'TRES_ADDRESS_BLOCKED',
  'TRES_DNS',
  'TRES_DNS_TEMPORARY',
  'TRES_CONNECTION_REFUSED',
  'TRES_HOST_UNREACHABLE',
  'TRES_CONNECT_TIMEOUT',
]);

/** What a resume does about the earlier runs' failures. */
export interface ResumeDecision {
  /** The plan to run: a new crawl in the same folder when the old one fetched nothing. */
  plan: CrawlPlan;
  /** True when the folder's store is to be removed before the crawl starts. */
  isRestart: boolean;
  /** Lines for stderr. */
  warnings: string[];
}

/** What the earlier runs of a crawl left: attempts, pages, failures by reason, seeds. */
interface Before {
  attempts: number;
  pages: number;
  reasons: { code: string; count: number }[];
  seeds: { url: string; failed: string | undefined }[];
}

function readBefore(dir: string): Before | undefined {
  try {
    return withCrawlReader(dir, (r) => ({
      ...r.counts(),
      reasons: r.failureReasons(),
      seeds: r.seeds(),
    }));
  } catch {
    return undefined; // the crawl's own checks say what is wrong with the folder
  }
}

/**
 * Decides, reading only, how a resume treats the earlier failures (see the module comment).
 * A plan that is not a resume comes back unchanged.
 */
export function decideResume(plan: CrawlPlan): ResumeDecision {
  const same = { plan, isRestart: false, warnings: [] };
  if (!plan.isResume) return same;
  const before = readBefore(plan.outDir);
  if (before === undefined || before.attempts === 0) return same;
  const reasons = before.reasons.map((r) => `${r.code} ${r.count}`).join(', ');
  if (before.pages === 0) {
    const seeds = [...new Set([...before.seeds.map((s) => s.url), ...plan.seeds])];
    return {
      plan: { ...plan, isResume: false, options: { ...plan.options, isResume: false }, seeds },
      isRestart: true,
      warnings: [
        `${plan.outDir} fetched no page before (${countOf(before.attempts, 'attempt')} failed: ${reasons}); starting it again from its ${seeds.length} seeds with the options of this run`,
      ],
    };
  }
  const fixable = before.seeds.filter((s) => s.failed !== undefined && NETWORK_FAILURES.has(s.failed));
  if (fixable.length === 0) return same;
  const codes = [...new Set(fixable.map((s) => s.failed))].join(', ');
  return {
    ...same,
    warnings: [
      `${fixable.length} seeds of ${plan.outDir} failed before (${codes}, e.g. ${fixable[0]!.url}) and a resume fetches no URL twice; to fetch them, start a new crawl (--out) with them in its --seeds file`,
    ],
  };
}

/** Removes the store of a crawl that fetched nothing (see {@link decideResume}); other files stay. */
export function removeFailedStore(dir: string): void {
  const paths = storePaths(dir);
  for (const path of [
    paths.sqlite,
    `${paths.sqlite}-wal`,
    `${paths.sqlite}-shm`,
    paths.warc,
    paths.jsonl,
    join(dir, LEGACY_OPTIONS_FILE),
  ]) {
    if (existsSync(path)) rmSync(path, { force: true });
  }
}
