import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  folderBypasses,
  importEdges,
  importsLeaving,
  isTestSupport,
  roomBypasses,
  twoFileCycles,
} from './import-graph.js';

/** The figures scripts/count-imports.ts prints, held at zero. */
const ROOT = join(import.meta.dirname, '..');
const edges = importEdges(join(ROOT, 'src'));

describe('imports between rooms', () => {
  it("go through the other room's index.ts (fix with: npx vite-node scripts/imports-through-index.ts)", () => {
    expect(roomBypasses(edges).map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
  });

  it("go into a subfolder of a room through that subfolder's index.ts (same fix)", () => {
    expect(folderBypasses(edges).bypass.map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
  });

  it('form no two-file cycle', () => {
    expect(twoFileCycles(edges).map(([a, b]) => `${a} <-> ${b}`)).toEqual([]);
  });
});

/** The crawler's package entries: what a library user, and the lab, may import. */
const CRAWLER_ENTRIES = ['tres-crawler', 'tres-crawler/internals'];
const PACKAGES = ['tres-crawler', 'tres-lab', 'tres-testing'];
/** The test support's entries: the shared support, and the temporary folders of tests. */
const TESTING_ENTRIES = ['tres-testing', 'tres-testing/temp-dir'];
const show = (found: { from: string; specifier: string }[]) =>
  found.map((i) => `${i.from} -> ${i.specifier}`);

describe('imports between the packages', () => {
  it("the crawler's package exports just its two entries, the root and internals", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: object };
    expect(Object.keys(pkg.exports)).toEqual(['.', './internals']);
  });

  it('the lab imports the crawler only through its package entries, and the test support by name', () => {
    expect(
      show(importsLeaving(join(ROOT, 'lab', 'src'), PACKAGES, [...CRAWLER_ENTRIES, ...TESTING_ENTRIES])),
    ).toEqual([]);
  });

  it('the shared test support imports the crawler only through its package entries', () => {
    expect(show(importsLeaving(join(ROOT, 'testing', 'src'), PACKAGES, CRAWLER_ENTRIES))).toEqual([]);
  });

  it('the crawler imports nothing of the lab, and the test support only from its tests', () => {
    const leaving = importsLeaving(join(ROOT, 'src'), PACKAGES, []);
    expect(
      show(leaving.filter((i) => !(TESTING_ENTRIES.includes(i.specifier) && isTestSupport(i.from)))),
    ).toEqual([]);
  });

  it('the lab and the test support are private packages, never published', () => {
    for (const dir of ['lab', 'testing']) {
      const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { private?: boolean };
      expect(pkg.private, dir).toBe(true);
    }
  });
});
