import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TOPICS_DIR } from './manifest.js';
import { loadTopic, loadTopics, parseTopic } from './topic.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('tres-topic-');
});

const base = {
  name: 'hw',
  keywords: ['Hardware'],
  relevant: [{ host: 'docs.kernel.org', prefix: '/hwmon/' }],
  seeds: ['https://docs.kernel.org/hwmon/index.html'],
};

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('shipped topics', () => {
  it('loads the five shipped topics from data/topics with keywords, rules and at least eight seeds', () => {
    const topics = loadTopics(DEFAULT_TOPICS_DIR);
    expect(topics.map((t) => t.name)).toEqual([
      'hardware',
      'programming-languages',
      'statistics',
      'system-administration',
      'typesetting',
    ]);
    for (const t of topics) {
      expect(t.keywords.length).toBeGreaterThan(5);
      expect(t.keyphrases.length).toBeGreaterThan(5);
      expect(t.seeds.length).toBeGreaterThanOrEqual(8);
      expect(t.category).toMatch(/\//);
    }
  });

  it('labels the hardware subtrees of docs.kernel.org relevant and the rest of it not', () => {
    const hw = loadTopic(join(DEFAULT_TOPICS_DIR, 'hardware.yaml'));
    expect(hw.labelOf('https://docs.kernel.org/hwmon/lm75.html')).toBe(true);
    expect(hw.labelOf('http://docs.kernel.org:8080/PCI/index.html')).toBe(true);
    expect(hw.labelOf('https://docs.kernel.org/mm/index.html')).toBe(false);
    expect(hw.labelOf('https://www.lirc.org/html/index.html')).toBe(true);
    expect(hw.labelOf('not a url')).toBe(false);
  });

  it('labels statistics pages picked by pattern and leaves out the exceptions', () => {
    const st = loadTopic(join(DEFAULT_TOPICS_DIR, 'statistics.yaml'));
    expect(st.labelOf('https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.corr.html')).toBe(true);
    expect(st.labelOf('https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.merge.html')).toBe(
      false,
    );
    expect(st.labelOf('https://www.statsmodels.org/stable/regression.html')).toBe(true);
    expect(st.labelOf('https://www.statsmodels.org/stable/dev/git_notes.html')).toBe(false);
    expect(st.labelOf('https://maxima.sourceforge.io/docs/manual/maxima_333.html')).toBe(true);
    expect(st.labelOf('https://maxima.sourceforge.io/docs/manual/maxima_33.html')).toBe(false);
  });
});

describe('parseTopic', () => {
  it('fills defaults: prefix /, no keyphrases, no exceptions; lowercases keywords', () => {
    const t = parseTopic(
      { ...base, relevant: [{ host: 'WWW.Lirc.org' }], seeds: ['https://www.lirc.org/'] },
      'x.yaml',
    );
    expect(t.relevant).toEqual([{ host: 'www.lirc.org', prefix: '/' }]);
    expect(t.keywords).toEqual(['hardware']);
    expect(t.keyphrases).toEqual([]);
    expect(t.except).toEqual([]);
  });

  it('names the file and the field of a mistake', () => {
    const e = errorOf(() => parseTopic({ ...base, keywords: undefined }, '/t/hw.yaml'));
    expect(e.message).toContain('/t/hw.yaml');
    expect(e.context).toMatchObject({ file: '/t/hw.yaml', field: 'keywords' });
    expect(errorOf(() => parseTopic({ ...base, name: 'Hard Ware' }, 'f')).context.field).toBe('name');
    expect(
      errorOf(() => parseTopic({ ...base, relevant: [{ host: 'h', prefix: 'x' }] }, 'f')).context.field,
    ).toBe('relevant[0].prefix');
    expect(
      errorOf(() => parseTopic({ ...base, relevant: [{ host: 'h', pattern: '(' }] }, 'f')).context.field,
    ).toBe('relevant[0].pattern');
    expect(errorOf(() => parseTopic({ ...base, seedz: [] }, 'f')).context.field).toBe('seedz');
  });

  it('refuses a seed its own rules do not label relevant', () => {
    const e = errorOf(() => parseTopic({ ...base, seeds: ['https://docs.kernel.org/mm/index.html'] }, 'f'));
    expect(e.context.field).toBe('seeds[0]');
    expect(e.message).toMatch(/not relevant/);
  });
});

describe('loadTopic / loadTopics', () => {
  it('reports invalid YAML with the file name', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: [unclosed');
    expect(() => loadTopic(file)).toThrow(/bad\.yaml is not valid YAML/);
  });

  it('refuses two files with the same topic name', () => {
    const text = 'name: same\nkeywords: [a]\nrelevant: [{host: a.example}]\nseeds: [https://a.example/]\n';
    writeFileSync(join(dir, 'a.yaml'), text);
    writeFileSync(join(dir, 'b.yml'), text);
    expect(() => loadTopics(dir)).toThrow(/also the name in a\.yaml/);
  });

  it('picks up a new topic file without code changes', () => {
    writeFileSync(
      join(dir, 'music.yaml'),
      'name: music\nkeywords: [music]\nrelevant: [{host: lilypond.org}]\nseeds: [https://lilypond.org/doc/v2.24/]\n',
    );
    const [music] = loadTopics(dir);
    expect(music?.labelOf('https://lilypond.org/doc/v2.24/Documentation/web/index.html')).toBe(true);
  });
});
