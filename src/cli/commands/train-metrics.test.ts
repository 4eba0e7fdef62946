/**
 * `tres train` says how good the saved model is: held-out precision, recall
 * and F1, warnings when they are poor or a class is tiny, and two routes from labels a user
 * already has: a labels file, and the labels of a finished crawl.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { twoTopicCorpus } from '../../relevance/test-fixtures.js';
import { createSyntheticWeb, sandboxResolveRules, startReplayServer } from '../../sandbox/index.js';
import { CrawlReader, CrawlStore } from '../../store/index.js';
import { runMain } from '../test-cli.js';

describe('tres train reports the quality of the model it measures, and saves one trained on every label', () => {
  const work = tempDir('tres-train-metrics-');
  beforeAll(() => {
    const lines: string[] = [];
    for (const d of twoTopicCorpus(40, 60, 'metrics')) {
      const name = `${d.source.replace('/', '-')}.txt`;
      const dir = join(work, d.label === 1 ? 'rel' : 'irr');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), d.text);
      lines.push(`${d.label === 1 ? 'rel' : 'irr'}/${name}\t${d.label === 1 ? 'relevant' : 'irrelevant'}`);
    }
    writeFileSync(join(work, 'labels.tsv'), `# my labels\n${lines.join('\n')}\n`);
    // The same documents with labels that say nothing about them: every other file relevant.
    writeFileSync(
      join(work, 'noise.tsv'),
      lines.map((l, i) => `${l.split('\t')[0]} ${i % 2 === 0 ? 'relevant' : 'irrelevant'}`).join('\n'),
    );
  });
  /** `tres train` of the naive Bayes model on the two folders of documents. */
  const trainFolders = () => [
    'train',
    '--relevant',
    join(work, 'rel'),
    '--irrelevant',
    join(work, 'irr'),
    '--model',
    'nb',
  ];

  it('prints held-out precision, recall and F1 of the saved model and records them in training.json', async () => {
    const out = join(work, 'm1');
    const run = await runMain([...trainFolders(), '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'held-out test: 20 documents the model never saw (8 relevant, 12 irrelevant)',
    );
    const figures = /precision ([\d.]+)% {2}recall ([\d.]+)% {2}F1 ([\d.]+)% {2}macro F1 ([\d.]+)%/.exec(
      run.stdout,
    );
    expect(figures, run.stdout).not.toBeNull();
    const record = JSON.parse(readFileSync(join(out, 'training.json'), 'utf8'));
    // Measured on a model trained on 80, then trained again on all 100 and saved.
    expect(run.stdout).toContain(
      '(of a model trained on the other 80; the saved model was then trained on all 100 documents',
    );
    expect(record.documents).toEqual({ total: 100, relevant: 40, trainedOn: 100 });
    expect(record.heldOut.trainedOn).toBe(80);
    expect(record.refit).toBe(true);
    expect((record.heldOut.metrics.recall * 100).toFixed(1)).toBe(figures![2]);
    expect(record.heldOut.metrics.recall).toBeGreaterThan(0.7); // two distinct topics: learnable
    expect(run.stderr).not.toContain('warning: recall');
  });

  it('saves the measured model itself with --no-refit', async () => {
    const args = trainFolders();
    const refit = await runMain([...args, '--out', join(work, 'r1')]);
    const measured = await runMain([...args, '--no-refit', '--out', join(work, 'r2')]);
    expect(refit.code).toBe(0);
    expect(measured.code).toBe(0);
    expect(measured.stdout).not.toContain('the saved model was then trained');
    const record = JSON.parse(readFileSync(join(work, 'r2', 'training.json'), 'utf8'));
    expect(record.documents.trainedOn).toBe(80);
    expect(record.heldOut.trainedOn).toBe(80);
    expect(record.refit).toBe(false);
    // The same held-out figures (the same measured model); different saved models.
    const figures = (out: string) => /precision .*/.exec(out)?.[0];
    expect(figures(measured.stdout)).toBe(figures(refit.stdout));
    const model = (dir: string) => readFileSync(join(work, dir, 'model.json'), 'utf8');
    expect(model('r2')).not.toBe(model('r1'));
  });

  it('warns when recall or precision is poor and when a class is tiny, and trains on everything with --no-holdout', async () => {
    const noisy = await runMain([
      'train',
      '--labels',
      join(work, 'noise.tsv'),
      '--model',
      'nb',
      '--out',
      join(work, 'm2'),
    ]);
    expect(noisy.code).toBe(0);
    expect(noisy.stderr).toMatch(/tres: warning: (recall|precision) [\d.]+%/);
    const tiny = join(work, 'tiny.tsv');
    const lines = readFileSync(join(work, 'labels.tsv'), 'utf8').split('\n');
    writeFileSync(
      tiny,
      [
        ...lines.filter((l) => l.endsWith('\trelevant')).slice(0, 5),
        ...lines.filter((l) => l.endsWith('\tirrelevant')),
      ].join('\n'),
    );
    const small = await runMain(['train', '--labels', tiny, '--model', 'nb', '--out', join(work, 'm3')]);
    expect(small.code).toBe(0);
    expect(small.stderr).toContain('tres: warning: only 5 relevant documents: the figures above are rough');
    // One relevant document held out: recall is 0 or 1 of 1, and the interval says how little that says.
    expect(small.stdout).toMatch(
      /95% intervals: precision \d+-\d+% \(\d+ of \d+ it called relevant\), recall (0-79|21-100)% \([01] of 1 relevant found\)/,
    );
    const all = await runMain([
      'train',
      '--labels',
      join(work, 'labels.tsv'),
      '--no-holdout',
      '--model',
      'nb',
      '--out',
      join(work, 'm4'),
    ]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('held-out test: none (--no-holdout)');
    expect(JSON.parse(readFileSync(join(work, 'm4', 'training.json'), 'utf8')).documents.trainedOn).toBe(100);
  });

  it('trains from a labels file of paths, naming file and line of a bad label', async () => {
    const run = await runMain([
      'train',
      '--labels',
      join(work, 'labels.tsv'),
      '--model',
      'nb',
      '--out',
      join(work, 'm5'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('held-out test: 20 documents');
    const bad = join(work, 'bad.tsv');
    writeFileSync(bad, 'rel/a.txt relevant\nrel/b.txt maybe\n');
    const refused = await runMain(['train', '--labels', bad, '--out', join(work, 'm6')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--labels ${bad}:2: "rel/b.txt maybe" is not "TARGET LABEL"`);
    const urls = join(work, 'urls.tsv');
    writeFileSync(urls, 'http://a.test/ relevant\nhttp://b.test/ irrelevant\n');
    const noCrawl = await runMain(['train', '--labels', urls, '--out', join(work, 'm7')]);
    expect(noCrawl.code).toBe(2);
    expect(noCrawl.stderr).toContain(
      `${urls}:1: http://a.test/ is a URL: give --crawl DIR, the crawl that fetched it`,
    );
  });

  it("trains on a finished crawl's labels, reading the pages' text from its WARC", async () => {
    const web = createSyntheticWeb({
      seed: 5,
      hostCount: 6,
      pageCount: 600,
      topics: ['computer hardware', 'cooking recipes'],
    });
    const server = await startReplayServer({ sites: web.sites() });
    const crawl = join(work, 'crawl');
    try {
      const seeds = join(work, 'seeds.txt');
      writeFileSync(
        seeds,
        `${web.seedUrls(3, { relevant: true }).join('\n')}\n${web.seedUrls(3, { relevant: false }).join('\n')}\n`,
      );
      const crawled = await runMain([
        'crawl',
        '--seeds',
        seeds,
        '--out',
        crawl,
        '--keywords',
        'computer,hardware',
        '--strategy',
        'bfs',
        '--max-pages',
        '60',
        '--allow-loopback',
        '--min-delay-ms',
        '0',
        '--resolve',
        sandboxResolveRules(server).join(','),
        '--quiet',
      ]);
      expect(crawled.code).toBe(0);
    } finally {
      await server.close();
    }
    const none = await runMain(['train', '--crawl', crawl, '--out', join(work, 'm8')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the crawl holds no labels; label pages in its dashboard');
    // Labels as the dashboard gives them, by the web's ground truth.
    const reader = CrawlReader.open(crawl);
    const pages = [...reader.pages()].filter((p) => p.isPage);
    reader.close();
    const store = CrawlStore.open(crawl, { mode: 'resume' });
    let labelled = 0;
    for (const p of pages) {
      const truth = web.labelOf(p.finalUrl);
      if (truth === undefined) continue;
      store.addLabel(p.id, truth);
      labelled++;
    }
    store.close();
    expect(labelled).toBeGreaterThan(20);
    const run = await runMain([
      'train',
      '--crawl',
      crawl,
      '--model',
      'nb',
      '--skip-bad',
      '--out',
      join(work, 'm9'),
    ]);
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/held-out test: \d+ documents the model never saw/);
  });
});
