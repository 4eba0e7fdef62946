import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../common/index.js';
import { twoTopicCorpus } from '../../relevance/test-fixtures.js';
import { registerEvaluateCommand } from './evaluate.js';
import { registerKeywordsCommand } from './keywords.js';
import { registerTrainCommand } from './train.js';

const work = tempDir('tres-cli-rel-');

beforeAll(() => {
  for (const d of twoTopicCorpus(15, 30, 'cli')) {
    const dir = join(work, d.label === 1 ? 'rel' : 'irr');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${d.source.replace('/', '-')}.txt`), d.text);
  }
  writeFileSync(join(work, 'seeds.txt'), '# sport\nfootball\nsoccer\nhockey\n');
  mkdirSync(join(work, 'empty'));
});

async function run(args: string[]): Promise<string> {
  const program = new Command('tres').exitOverride();
  registerKeywordsCommand(program);
  registerTrainCommand(program);
  registerEvaluateCommand(program);
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await program.parseAsync(['node', 'tres', ...args]);
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
  return out.join('\n');
}

describe('tres keywords / train / evaluate', () => {
  it('expands keywords and prints the Table-2 statistics', async () => {
    const out = await run([
      'keywords',
      '--keywords',
      join(work, 'seeds.txt'),
      '--corpus',
      join(work, 'rel'),
      '--irrelevant',
      join(work, 'irr'),
      '--out',
      join(work, 'kw.txt'),
    ]);
    expect(out).toContain('# initial keywords | 3 |');
    expect(out).toMatch(/SHORTCUT1 = \d+/);
    expect(readFileSync(join(work, 'kw.txt'), 'utf8')).toContain('football\n');
  }, 60_000);

  it('trains and saves a model with its training record', async () => {
    const out = await run([
      'train',
      '--relevant',
      join(work, 'rel'),
      '--irrelevant',
      join(work, 'irr'),
      '--model',
      'svm',
      '--out',
      join(work, 'm'),
    ]);
    expect(out).toContain('saved svm');
    expect(existsSync(join(work, 'm', 'model.json'))).toBe(true);
    const record = JSON.parse(readFileSync(join(work, 'm', 'training.json'), 'utf8'));
    expect(record.config.seed).toBe('tres');
    expect(record.dataset).toEqual({ relevantDir: join(work, 'rel'), irrelevantDir: join(work, 'irr') });
  });

  it('cross-validates models and prints Table 1', async () => {
    const out = await run([
      'evaluate',
      '--relevant',
      join(work, 'rel'),
      '--irrelevant',
      join(work, 'irr'),
      '--models',
      'nb,svm',
      '--folds',
      '3',
    ]);
    expect(out).toContain('| Naive Bayes |');
    expect(out).toContain("ACHE's SVM");
  });

  it('reports an empty folder as a ConfigError naming it', async () => {
    await expect(
      run([
        'train',
        '--relevant',
        join(work, 'rel'),
        '--irrelevant',
        join(work, 'empty'),
        '--model',
        'nb',
        '--out',
        join(work, 'x'),
      ]),
    ).rejects.toThrow(ConfigError);
    await expect(
      run([
        'train',
        '--relevant',
        join(work, 'rel'),
        '--irrelevant',
        join(work, 'empty'),
        '--model',
        'nb',
        '--out',
        join(work, 'x'),
      ]),
    ).rejects.toThrow(/empty holds no documents/);
  });
});
