import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { KeywordJudge } from '../crawl/index.js';
import { confusion, metricsOf } from '../relevance/index.js';
import { type JobPage, type RetrainJob, runRetrainJob } from './retrain-job.js';

const KEYWORDS = ['telescope', 'star', 'orbit'];
const SKY = ['telescope', 'star', 'orbit', 'galaxy', 'nebula', 'comet', 'planet', 'mirror', 'lens'];
const KITCHEN = ['soup', 'onion', 'pasta', 'garlic', 'oven', 'butter', 'salt', 'pepper', 'bread'];

/** A page of 30 words drawn from `words` (by a fixed rotation), label and whether a random question asked it. */
function page(n: number, words: string[], label: 0 | 1, isRandomQuestion: boolean): JobPage {
  const text = Array.from({ length: 30 }, (_, i) => words[(n * 7 + i * 3) % words.length]).join(' ');
  return {
    url: `http://test/${n}`,
    title: '',
    text,
    label,
    isUserLabel: true,
    recordedProbability: 0.5,
    isRandomQuestion,
  };
}

function job(pages: JobPage[]): RetrainJob {
  return {
    model: 'nb',
    warcPath: '',
    pages,
    current: { keywords: KEYWORDS },
    threshold: 0.5,
    folds: 3,
    labelWeight: 3,
    seed: 'retrain-test',
    outDir: tempDir('tres-retrain-'),
  };
}

describe('runRetrainJob: which answers decide', () => {
  // Informative answers: pages near the keyword judge's threshold. Random answers: the kitchen
  // pages that mention a telescope are where the keyword judge is wrong.
  const informative = [
    ...Array.from({ length: 6 }, (_, i) => page(i, SKY, 1, false)),
    ...Array.from({ length: 6 }, (_, i) => page(10 + i, KITCHEN, 0, false)),
  ];
  const random = [
    ...Array.from({ length: 4 }, (_, i) => page(20 + i, SKY, 1, true)),
    ...Array.from({ length: 4 }, (_, i) => page(30 + i, [...KITCHEN, 'telescope', 'star'], 0, true)),
  ];

  it('measures the judge in use and the retrained one on the answers to random questions only', async () => {
    const result = await runRetrainJob(job([...informative, ...random]));
    expect(result.checkedOn).toBe('random');
    expect(result.userLabels).toBe(informative.length + random.length);
    const judged = await new KeywordJudge({ keywords: KEYWORDS }).scorePages(
      random.map((p) => ({ ...p, text: p.text ?? '' })),
    );
    const labels = Int8Array.from(random, (p) => p.label);
    expect(result.before).toEqual(metricsOf(confusion(labels, judged, 0.5)));
    expect(result.isAccepted).toBe(result.after.macroF1 >= result.before.macroF1);
  });

  it('with no random questions, every label decides', async () => {
    const all = [...informative, ...random].map((p) => ({ ...p, isRandomQuestion: false }));
    const result = await runRetrainJob(job(all));
    expect(result.checkedOn).toBe('all');
    const judged = await new KeywordJudge({ keywords: KEYWORDS }).scorePages(
      all.map((p) => ({ ...p, text: p.text ?? '' })),
    );
    expect(result.before).toEqual(
      metricsOf(
        confusion(
          Int8Array.from(all, (p) => p.label),
          judged,
          0.5,
        ),
      ),
    );
  });

  it('waits for 2 relevant and 2 irrelevant random answers before taking a retrained judge', async () => {
    const oneRelevant = [...informative, ...random.slice(3)];
    const result = await runRetrainJob(job(oneRelevant));
    expect(result.checkedOn).toBe('random');
    expect(result.isAccepted).toBe(false);
    expect(result.refusedBecause).toMatch(/hold 1 relevant and 4 irrelevant pages/);
  });
});
