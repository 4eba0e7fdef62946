/**
 * Files of a crawl benchmark. Each run is written to `runs/<label>__run<i>.json` the moment it
 * finishes (atomically), so a benchmark killed halfway keeps what finished and the next start
 * skips those runs. The tables (`runs.csv`, `curves.csv`, `table.csv`, `results.json`) are
 * rewritten from the run files after every run.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { configLabel } from './crawl-bench-options.js';
import type { RunResult } from './crawl-bench-run.js';
import type { ConfigRow } from './crawl-bench-stats.js';

/**
 * What must be equal for a stored run to count as a run of this benchmark. The seed is checked
 * per run (a run depends on its own seed URL only, `seeds[run mod n]`): changing one seed of a
 * topic makes only the runs from that seed stale. Files written before this carry a `seeds`
 * field, which is ignored.
 */
export interface RunSetting {
  topic: string;
  maxPages: number;
  concurrency: number;
  curvePoints: number;
  relevanceThreshold: number;
  /** `keywords` or the model folder. */
  judge: string;
  /** 'open' for open-world runs (`--open-world`); absent for the closed world. */
  world?: 'open';
}

/** A run as stored: its setting, the commit that made it, and its numbers. */
export interface StoredRun {
  setting: RunSetting;
  commit: string;
  result: RunResult;
}

const RUNS_DIR = 'runs';

/** Path of the file of one run. */
export function runFilePath(outDir: string, strategy: string, domainLimit: string, run: number): string {
  const label = configLabel(strategy, domainLimit).replace(/[^A-Za-z0-9_.-]/g, '-');
  return join(outDir, RUNS_DIR, `${label}__run${run}.json`);
}

/** Writes a finished run (write to a temporary name, then rename: never a half file). */
export function writeRunFile(outDir: string, stored: StoredRun): string {
  const r = stored.result;
  const path = runFilePath(outDir, r.strategy, r.domainLimit, r.run);
  mkdirSync(join(outDir, RUNS_DIR), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(stored)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Deletes the stored runs of `outDir` (`--fresh`). */
export function clearRunFiles(outDir: string): void {
  rmSync(join(outDir, RUNS_DIR), { recursive: true, force: true });
}

/** Stored runs of a folder: those of this benchmark, and those whose seed URL has changed since. */
export interface StoredRuns {
  runs: StoredRun[];
  /** Runs made from another seed URL than the topic now gives their index: to be run again. */
  stale: StoredRun[];
}

/**
 * Every stored run of `outDir`, checked against `setting` and against the seed the topic now
 * gives its run index (`seedOf(run)`).
 * @throws ConfigError naming the file and the differing fields when a run was made with another
 *   setting (mixing them would corrupt the means): start fresh or use another folder.
 */
export function readRunFiles(
  outDir: string,
  setting: RunSetting,
  seedOf: (run: number) => string,
): StoredRuns {
  const dir = join(outDir, RUNS_DIR);
  if (!existsSync(dir)) return { runs: [], stale: [] };
  const out: StoredRuns = { runs: [], stale: [] };
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    let stored: StoredRun;
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as StoredRun;
    } catch (error) {
      throw new ConfigError(`stored run ${file} is not valid JSON (delete it to run it again)`, {
        context: { file },
        cause: error,
      });
    }
    const differ = (Object.keys(setting) as (keyof RunSetting)[]).filter(
      (k) => JSON.stringify(stored.setting?.[k]) !== JSON.stringify(setting[k]),
    );
    if (differ.length > 0)
      throw new ConfigError(
        `${file} was made with another ${differ.join(', ')} (${differ.map((k) => `${JSON.stringify(stored.setting?.[k])} instead of ${JSON.stringify(setting[k])}`).join('; ')}); pass --fresh to discard the stored runs or choose another --out`,
        { context: { file, field: differ[0] } },
      );
    if (stored.result.seedUrl === seedOf(stored.result.run)) out.runs.push(stored);
    else out.stale.push(stored);
  }
  return out;
}

/** One CSV field: quoted when it holds a comma, quote or line break. */
export function csvField(value: unknown): string {
  const text = typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(6) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines of a CSV file with a header. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\n')}\n`;
}

/** `runs.csv`: one line per run with its final numbers. */
export function runsCsv(runs: readonly RunResult[]): string {
  return toCsv(
    [
      'topic',
      'strategy',
      'domain_limit',
      'run',
      'seed_url',
      'max_pages',
      'steps',
      'pages',
      'failures',
      'duplicates',
      'relevant',
      'harvest_rate',
      'relevant_domains',
      'classifier_relevant',
      'classifier_harvest_rate',
      'classifier_relevant_domains',
      'both_relevant',
      'frontier_size',
      'stop_reason',
      'elapsed_s',
      'pages_per_sec',
    ],
    runs.map((r) => [
      r.topic,
      r.strategy,
      r.domainLimit,
      r.run,
      r.seedUrl,
      r.maxPages,
      r.steps,
      r.pages,
      r.failures,
      r.duplicates ?? '',
      r.relevant,
      r.harvestRate,
      r.relevantDomains,
      r.classifierRelevant,
      r.classifierHarvestRate,
      r.classifierRelevantDomains,
      r.bothRelevant,
      r.finalStats['frontier/size'] ?? '',
      r.stopReason,
      (r.timing.elapsedMs / 1000).toFixed(2),
      r.timing.pagesPerSec,
    ]),
  );
}

/** `curves.csv`: one line per run and curve point; strategy numbers as extra columns. */
export function curvesCsv(runs: readonly RunResult[]): string {
  const statNames = [...new Set(runs.flatMap((r) => r.curve.flatMap((p) => Object.keys(p.stats))))].sort();
  return toCsv(
    [
      'strategy',
      'domain_limit',
      'run',
      'step',
      'harvest_rate',
      'relevant_domains',
      'classifier_harvest_rate',
      ...statNames,
    ],
    runs.flatMap((r) =>
      r.curve.map((p) => [
        r.strategy,
        r.domainLimit,
        r.run,
        p.step,
        p.harvestRate,
        p.relevantDomains,
        p.classifierHarvestRate,
        ...statNames.map((s) => p.stats[s] ?? ''),
      ]),
    ),
  );
}

/** `table.csv`: the Table-3 rows (means and standard deviations over runs). */
export function tableCsv(rows: readonly ConfigRow[]): string {
  return toCsv(
    [
      'label',
      'strategy',
      'domain_limit',
      'runs',
      'harvest_rate_mean',
      'harvest_rate_std',
      'relevant_domains_mean',
      'relevant_domains_std',
      'classifier_harvest_rate_mean',
      'classifier_harvest_rate_std',
      'harvest_rate_gap_mean',
      'classifier_precision',
      'classifier_recall',
      'pareto_optimal',
    ],
    rows.map((r) => [
      r.label,
      r.strategy,
      r.domainLimit,
      r.runs,
      r.harvestRate.mean,
      r.harvestRate.std,
      r.relevantDomains.mean,
      r.relevantDomains.std,
      r.classifierHarvestRate.mean,
      r.classifierHarvestRate.std,
      r.harvestRateGap.mean,
      r.classifierPrecision,
      r.classifierRecall,
      r.isParetoOptimal,
    ]),
  );
}
