import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { loadDataset } from './dataset.js';
import { looksLikeHtml } from './html-text.js';

const work = tempDir('tres-data-');

const EN = 'The league match ended with a late goal and the team celebrated with the fans in the stadium.';

function folder(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  return dir;
}

describe('loadDataset', () => {
  it('reads HTML and text files from folders with their labels', () => {
    const rel = folder('rel', {
      'a.html': `<html><head><title>Match</title><link rel="canonical" href="http://x.example/a"><script>var x=1</script></head><body><p>${EN}</p></body></html>`,
      'b.txt': EN,
    });
    const irr = folder('irr', { 'c.txt': 'A recipe for soup with garlic and bread.' });
    const docs = loadDataset({ relevantDir: rel, irrelevantDir: irr });
    expect(docs.map((d) => d.label)).toEqual([1, 1, 0]);
    expect(docs[0]?.title).toBe('Match');
    expect(docs[0]?.url).toBe('http://x.example/a');
    expect(docs[0]?.text).not.toContain('var x');
  });
  it('reads JSON lines', () => {
    const file = join(work, 'data.jsonl');
    writeFileSync(
      file,
      `{"url":"http://a","text":"${EN}","label":1}\n\n{"url":"http://b","text":"soup recipe","label":"irrelevant"}\n`,
    );
    const docs = loadDataset({ jsonlFiles: [file] });
    expect(docs.map((d) => [d.url, d.label])).toEqual([
      ['http://a', 1],
      ['http://b', 0],
    ]);
  });
  it('names the path of a missing or empty folder', () => {
    const empty = folder('empty', {});
    expect(() => loadDataset({ relevantDir: join(work, 'nope'), irrelevantDir: empty })).toThrow(
      /nope does not exist/,
    );
    const rel = folder('rel2', { 'a.txt': EN });
    expect(() => loadDataset({ relevantDir: rel, irrelevantDir: empty })).toThrow(/empty holds no documents/);
  });
  it('refuses a dataset with only one class', () => {
    const file = join(work, 'one.jsonl');
    writeFileSync(file, `{"text":"${EN}","label":1}\n`);
    expect(() => loadDataset({ jsonlFiles: [file] })).toThrow(/no usable irrelevant documents/);
  });
  it('reports empty, non-English and unreadable pages by path, or skips them when asked', () => {
    const rel = folder('rel3', {
      'good.txt': EN,
      'empty.html': '<html><body><script>x()</script></body></html>',
      'french.txt':
        'Le match de la ligue est terminé avec un but et les joueurs sont dans le stade pour la fête des supporters avec une équipe qui est pour les fans dans la ville.',
      'locked.txt': EN,
    });
    chmodSync(join(rel, 'locked.txt'), 0o000);
    const irr = folder('irr3', { 'c.txt': 'soup recipe with garlic' });
    let error: unknown;
    try {
      loadDataset({ relevantDir: rel, irrelevantDir: irr });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/empty\.html: no words/);
    expect(message).toMatch(/french\.txt: not English/);
    // root can read anything; only check the lock when it took effect.
    if (process.getuid?.() !== 0) expect(message).toMatch(/locked\.txt: unreadable/);
    const warnings: string[] = [];
    const docs = loadDataset(
      { relevantDir: rel, irrelevantDir: irr },
      { isSkippingBad: true, onWarning: (w) => warnings.push(w) },
    );
    expect(docs.some((d) => d.source.endsWith('good.txt'))).toBe(true);
    expect(warnings[0]).toMatch(/skipped/);
  });
  it('reports a bad JSON line with its line number', () => {
    const file = join(work, 'bad.jsonl');
    writeFileSync(file, `{"text":"${EN}","label":1}\n{oops\n`);
    expect(() => loadDataset({ jsonlFiles: [file] })).toThrow(/bad\.jsonl:2: not valid JSON/);
  });
});

describe('looksLikeHtml', () => {
  it('tells HTML from text', () => {
    expect(looksLikeHtml('<!DOCTYPE html><html><body>x</body></html>')).toBe(true);
    expect(looksLikeHtml('a < b and c > d')).toBe(false);
  });
});
