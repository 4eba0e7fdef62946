import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from 'tres-crawler';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CrawlBenchResult, modelProvenance, runCrawlBench } from './crawl-bench.js';
import type { RunResult } from './crawl-bench-run.js';
import { runOnce } from './crawl-bench-run.js';
import { spread } from './crawl-bench-stats.js';
import { writeSyntheticTopic, xmlProblems } from './crawl-bench-test-utils.js';
import { openBenchWeb } from './crawl-bench-topic.js';

const dir = tempDir('tres-bench-crawl-test-');
const topicFile = writeSyntheticTopic(dir);
const outDir = join(dir, 'out');
const lines: string[] = [];
let result: CrawlBenchResult;

const base = {
  topicFile,
  strategies: ['bfs', 'best-first'],
  maxPages: 60,
  runs: 2,
  domainLimits: ['none', '5_2'],
  outDir,
  command: 'npm run lab -- bench crawl (test)',
  log: (line: string) => void lines.push(line),
};

beforeAll(async () => {
  result = await runCrawlBench(base);
});

/** Minimal CSV reader for the files the harness writes (quoted fields allowed). */
function readCsv(path: string): Record<string, string>[] {
  const [header, ...rows] = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '')),
    );
  return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i] ?? ''])));
}

describe('runCrawlBench end to end on a small synthetic web (2 strategies x 2 limits x 2 runs x 60 pages)', () => {
  it('writes JSON, CSV, Markdown, one file per run and the SVG plots', () => {
    for (const name of ['results.json', 'runs.csv', 'curves.csv', 'table.csv', 'report.md', 'pareto.svg'])
      expect(existsSync(join(outDir, name)), name).toBe(true);
    for (const limit of ['none', '5_2'])
      for (const chart of ['harvest-rate', 'relevant-domains', 'frontier'])
        expect(existsSync(join(outDir, `${chart}-${limit}.svg`)), `${chart}-${limit}`).toBe(true);
    expect(readdirSync(join(outDir, 'runs')).sort()).toEqual([
      'best-first_5_2__run0.json',
      'best-first_5_2__run1.json',
      'best-first__run0.json',
      'best-first__run1.json',
      'bfs_5_2__run0.json',
      'bfs_5_2__run1.json',
      'bfs__run0.json',
      'bfs__run1.json',
    ]);
    expect(result.newRuns).toBe(8);
    expect(lines.filter((l) => /^\[\d+\/8\] /.test(l))).toHaveLength(8);
    expect(lines[1]).toMatch(
      /^\[1\/8\] bfs run 0 \(http:\/\/[^)]+\): 60 pages .* \| HR \d+\.\d% \(classifier \d+\.\d%\) \| relevant domains \d+/,
    );
  });

  it('starts run i from seed i and measures it consistently: rates are counts over attempts, the curve ends at the totals', async () => {
    const web = await openBenchWeb(topicFile);
    await web.close();
    for (const r of result.runs) {
      expect(r.seedUrl).toBe(web.topic.seeds[r.run]);
      // b = 5_2 on 30 hosts can run dry before the budget; the run then ends early and says so.
      if (r.domainLimit === 'none') expect(r.steps).toBe(60);
      else expect(r.stopReason === 'max-pages' ? 60 : r.steps).toBeLessThanOrEqual(60);
      expect(r.stopReason).toBe(r.steps === 60 ? 'max-pages' : 'frontier-empty');
      expect(r.harvestRate).toBeCloseTo(r.relevant / r.steps, 12);
      expect(r.classifierHarvestRate).toBeCloseTo(r.classifierRelevant / r.steps, 12);
      expect(r.bothRelevant).toBeLessThanOrEqual(Math.min(r.relevant, r.classifierRelevant));
      expect(r.relevantDomains).toBeGreaterThanOrEqual(r.relevant > 0 ? 1 : 0);
      // One point every max(1, 60 / 100) pages, up to the last step.
      expect(r.curve.map((p) => p.step)).toEqual(Array.from({ length: r.steps }, (_, i) => i + 1));
      const last = r.curve.at(-1)!;
      expect([last.harvestRate, last.relevantDomains, last.classifierHarvestRate]).toEqual([
        r.harvestRate,
        r.relevantDomains,
        r.classifierHarvestRate,
      ]);
      // (A run that ran dry purged closed domains after its last page, so only full runs compare.)
      if (r.stopReason === 'max-pages')
        expect(last.stats['frontier/size']).toBe(r.finalStats['frontier/size']);
    }
    expect(result.runs.some((r) => r.harvestRate > 0)).toBe(true);
  });

  it('puts the per-run numbers into the table: CSV rows, JSON rows and the Markdown table agree', () => {
    const runs = readCsv(join(outDir, 'runs.csv'));
    expect(runs).toHaveLength(8);
    const table = readCsv(join(outDir, 'table.csv'));
    const report = readFileSync(join(outDir, 'report.md'), 'utf8');
    expect(table.map((t) => t.label)).toEqual(['bfs', 'bfs_5_2', 'best-first', 'best-first_5_2']);
    for (const row of table) {
      const mine = runs.filter((r) => r.strategy === row.strategy && r.domain_limit === row.domain_limit);
      expect(mine).toHaveLength(2);
      const hr = spread(mine.map((r) => Number(r.harvest_rate)));
      const domains = spread(mine.map((r) => Number(r.relevant_domains)));
      const clf = spread(mine.map((r) => Number(r.classifier_harvest_rate)));
      expect(Number(row.harvest_rate_mean)).toBeCloseTo(hr.mean, 5);
      expect(Number(row.harvest_rate_std)).toBeCloseTo(hr.std, 5);
      expect(Number(row.relevant_domains_mean)).toBeCloseTo(domains.mean, 5);
      expect(Number(row.classifier_harvest_rate_mean)).toBeCloseTo(clf.mean, 5);
      const cell = `${(hr.mean * 100).toFixed(1)} ± ${(hr.std * 100).toFixed(1)}`;
      // | label | attempts | ran dry | failed | duplicates | HR | ...; the best ranked rows are bold.
      const dry = mine.filter((r) => Number(r.steps) < Number(r.max_pages)).length;
      const attempts = spread(mine.map((r) => Number(r.steps))).mean.toFixed(0);
      expect(report).toMatch(
        new RegExp(
          `\\| ${row.label} \\| ${attempts}[^|]* \\| ${dry}/2 \\| [^|]+ \\| [^|]+ \\| (\\*\\*)?${cell}(\\*\\*)? \\|`,
        ),
      );
      expect(report).toContain(`${(clf.mean * 100).toFixed(1)} ± ${(clf.std * 100).toFixed(1)} |`);
    }
    const json = JSON.parse(readFileSync(join(outDir, 'results.json'), 'utf8')) as { runs: RunResult[] };
    expect(json.runs.map((r) => r.harvestRate)).toEqual(
      runs.map((r) => expect.closeTo(Number(r.harvest_rate), 5)),
    );
    // The by-seed table: each ranked row lists its runs' own rates.
    const bfs = runs.filter((r) => r.strategy === 'bfs' && r.domain_limit === 'none');
    expect(report).toContain(
      `| bfs | ${bfs.map((r) => `${(Number(r.harvest_rate) * 100).toFixed(1)} / ${r.steps}`).join(' | ')} |`,
    );
    expect(report).toContain('npm run lab -- bench crawl (test)');
    expect(report).toMatch(/commit \S+/);
    expect(report).toContain(`0: ${result.runs[0]!.seedUrl}`);
    expect(report).not.toContain('Incomplete');
  });

  it('writes well-formed SVG with one line per strategy (and its classifier line) and a point per row', () => {
    for (const name of readdirSync(outDir).filter((n) => n.endsWith('.svg')))
      expect(xmlProblems(readFileSync(join(outDir, name), 'utf8')), name).toEqual([]);
    const series = (name: string) =>
      [...readFileSync(join(outDir, name), 'utf8').matchAll(/<polyline data-series="([^"]*)"/g)].map(
        (m) => m[1],
      );
    expect(series('harvest-rate-none.svg')).toEqual([
      'bfs',
      'bfs (classifier)',
      'best-first',
      'best-first (classifier)',
    ]);
    expect(series('relevant-domains-5_2.svg')).toEqual(['bfs', 'best-first']);
    expect(series('frontier-none.svg')).toEqual(['bfs frontier', 'best-first frontier']);
    const pareto = readFileSync(join(outDir, 'pareto.svg'), 'utf8');
    expect([...pareto.matchAll(/data-point="([^"]*)"/g)].map((m) => m[1]).sort()).toEqual([
      'best-first',
      'best-first_5_2',
      'bfs',
      'bfs_5_2',
    ]);
  });

  it('resumes: finished runs are kept as they are and only the missing runs are made', async () => {
    const file = join(outDir, 'runs', 'bfs__run0.json');
    const before = statSync(file).mtimeMs;
    const more = await runCrawlBench({
      ...base,
      runs: 3,
      strategies: ['bfs'],
      domainLimits: ['none'],
      log: false,
    });
    expect(more.newRuns).toBe(1);
    expect(more.runs.map((r) => r.run)).toEqual([0, 1, 2]);
    expect(statSync(file).mtimeMs).toBe(before);
    expect(readFileSync(join(outDir, 'report.md'), 'utf8')).toContain('| bfs | ');
  });

  it("keeps each new run's crawl store when asked, with every attempt of the run", async () => {
    const keep = join(dir, 'stores');
    const kept = await runCrawlBench({
      ...base,
      outDir: join(dir, 'kept'),
      runs: 1,
      strategies: ['bfs'],
      domainLimits: ['none', '5_2'],
      keepStoresDir: keep,
      log: false,
    });
    expect(readdirSync(keep).sort()).toEqual(['bfs_5_2__run0', 'bfs__run0']);
    const db = new Database(join(keep, 'bfs__run0', 'crawl.sqlite'), { readonly: true });
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM pages').get() as { n: number };
    db.close();
    expect(n).toBe(kept.runs.find((r) => r.domainLimit === 'none')?.steps);
  });

  it('runs again only the runs whose seed URL the topic has changed', async () => {
    const seeds = result.runs
      .filter((r) => r.strategy === 'bfs' && r.domainLimit === 'none')
      .map((r) => r.seedUrl);
    expect(new Set(seeds).size).toBe(2);
    // Seed 1 replaced by seed 0's URL (the benchmark does not ask seeds to differ).
    const changed = join(dir, 'changed-seed', 'synthetic-astronomy.yaml');
    mkdirSync(join(dir, 'changed-seed'), { recursive: true });
    writeFileSync(changed, `${readFileSync(topicFile, 'utf8')}seeds: [${seeds[0]}, ${seeds[0]}]\n`);
    const run0 = statSync(join(outDir, 'runs', 'bfs__run0.json')).mtimeMs;
    const said: string[] = [];
    const again = await runCrawlBench({
      ...base,
      topicFile: changed,
      strategies: ['bfs'],
      domainLimits: ['none'],
      log: (line) => void said.push(line),
    });
    expect(again.newRuns).toBe(1);
    expect(again.runs.map((r) => [r.run, r.seedUrl])).toEqual([
      [0, seeds[0]],
      [1, seeds[0]],
    ]);
    expect(statSync(join(outDir, 'runs', 'bfs__run0.json')).mtimeMs).toBe(run0);
    expect(said.join('\n')).toContain(`started from ${seeds[1]}, the topic now gives ${seeds[0]}`);
  });

  it('refuses to mix runs of another setting into the folder, naming the field', async () => {
    const error = await runCrawlBench({ ...base, maxPages: 61, log: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /was made with another maxPages \(60 instead of 61\); pass --fresh/,
    );
  });
});

describe('runOnce', () => {
  it('repeats a run exactly for the same seed at K = 1, and another run index starts elsewhere', async () => {
    const web = await openBenchWeb(topicFile);
    try {
      const spec = {
        topic: web.topic,
        strategy: 'random',
        domainLimit: '10',
        run: 1,
        maxPages: 40,
        concurrency: 1,
        curvePoints: 10,
        relevanceThreshold: 0.5,
        net: web.net,
        judge: undefined,
      };
      const { timing: _a, ...first } = await runOnce(spec);
      const { timing: _b, ...second } = await runOnce(spec);
      expect(second).toEqual(first);
      expect(first.curve.map((p) => p.step)).toEqual([4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
      const other = await runOnce({ ...spec, run: 2 });
      expect(other.seedUrl).not.toBe(first.seedUrl);
    } finally {
      await web.close();
    }
  });
});

describe('runCrawlBench with a trained model as the judge', () => {
  it('loads the model folder and judges pages with it (the ground truth stays the labels)', async () => {
    const { trainModel } = await import('tres-crawler/internals');
    // A naive Bayes model trained on pages of the same synthetic web (fast, no word vectors).
    const { createSyntheticWeb } = await import('tres-crawler');
    const synthetic = createSyntheticWeb({
      seed: 11,
      hostCount: 30,
      pageCount: 1500,
      topics: ['astronomy telescopes', 'cooking recipes', 'football league'],
      relevantTopic: 'astronomy telescopes',
    });
    const docs = [...synthetic.labels()].slice(0, 300).map((l, i) => {
      const u = new URL(l.url);
      const html = synthetic.renderPage(u.hostname, u.pathname)?.html ?? '';
      const text = html.replace(/<[^>]*>/g, ' ');
      return { url: l.url, title: '', text, label: (l.isRelevant ? 1 : 0) as 0 | 1, source: String(i) };
    });
    const trained = await trainModel('nb', docs);
    const modelDir = join(dir, 'nb-model');
    await trained.model.save(modelDir);
    // One single-seed run judged by the model, in its own out folder.
    const runWithModel = async (out: string, over: Partial<Parameters<typeof runCrawlBench>[0]> = {}) =>
      (
        await runCrawlBench({
          ...base,
          outDir: join(dir, out),
          strategies: ['bfs'],
          runs: 1,
          domainLimits: ['none'],
          modelDir,
          log: false,
          ...over,
        })
      ).runs[0]!;
    const modelRun = await runWithModel('out-model');
    expect(readFileSync(join(dir, 'out-model', 'report.md'), 'utf8')).toContain(
      `the nb model in ${modelDir}`,
    );
    const keywordRun = result.runs.find(
      (r) => r.strategy === 'bfs' && r.domainLimit === 'none' && r.run === 0,
    )!;
    // Same seed, same bfs order: the same pages, judged by another classifier.
    expect(modelRun.harvestRate).toBe(keywordRun.harvestRate);
    expect(modelRun.classifierRelevant).not.toBe(keywordRun.classifierRelevant);

    // --truth-reward: the reward is the ground truth, so the crawler's judge agrees with it on
    // every page (links are still scored by the model).
    const truthRun = await runWithModel('out-truth', { isTruthReward: true });
    expect(truthRun.harvestRate).toBe(keywordRun.harvestRate);
    expect(truthRun.classifierRelevant).toBe(truthRun.relevant);
    expect(truthRun.bothRelevant).toBe(truthRun.relevant);
    expect(readFileSync(join(dir, 'out-truth', 'report.md'), 'utf8')).toContain("the topic's ground truth");
    // Strategies get the topic's keywords whatever judges the pages: with the model as judge, a
    // topic whose keywords match nothing changes tres's keyword features, so its crawl.
    const noMatch = join(dir, 'no-match.yaml');
    writeFileSync(noMatch, `${readFileSync(topicFile, 'utf8')}keywords: [zzzqx]\n`);
    const tres = { strategies: ['tres'], maxPages: 400 };
    const withKeywords = await runWithModel('kw-a', tres);
    const withoutMatches = await runWithModel('kw-b', { ...tres, topicFile: noMatch });
    expect(withKeywords.curve).not.toEqual(withoutMatches.curve);
    await expect(
      runCrawlBench({
        ...base,
        outDir: join(dir, 'x'),
        isTruthReward: true,
        judge: 'user:examples=1',
        log: false,
      }),
    ).rejects.toThrow(/--truth-reward.*--judge user/);
  });
});

describe('modelProvenance', () => {
  it('says how the reward model was trained and on which sample, from the files tres train and npm run lab -- docweb sample write', () => {
    const root = join(dir, 'provenance');
    mkdirSync(join(root, 'sample', 'relevant'), { recursive: true });
    mkdirSync(join(root, 'model'), { recursive: true });
    writeFileSync(
      join(root, 'model', 'training.json'),
      JSON.stringify({
        command: 'train --model svm --out M',
        dataset: { relevantDir: join(root, 'sample', 'relevant') },
      }),
    );
    expect(modelProvenance(join(root, 'model'))).toBe(', trained by `tres train --model svm --out M`');
    writeFileSync(
      join(root, 'sample', 'sample.json'),
      JSON.stringify({
        topicFile: 't.yaml',
        cacheDir: '/c',
        relevant: 500,
        ratio: 9,
        seed: '1',
        irrelevantFrom: 'all',
        draw: 'by-page',
        maxSiteShare: 0.05,
      }),
    );
    expect(modelProvenance(join(root, 'model'))).toBe(
      ', trained by `tres train --model svm --out M` on a sample drawn by `npm run lab -- docweb sample --topic t.yaml --cache /c --relevant 500 --ratio 9 --seed 1 --from all --draw by-page --max-site-share 0.05`',
    );
    expect(modelProvenance(join(root, 'nothing'))).toBe('');
  });
});
