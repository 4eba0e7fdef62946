import { describe, expect, it } from 'vitest';
import { ConfigError, createRng, type Rng, TresError } from '../../common/index.js';
import { DEFAULT_TREE_FRONTIER_OPTIONS, TreeFrontier } from './tree-frontier.js';

/** What a test adds: a link and its vector. */
interface Sample {
  x: Float32Array;
  url: string;
  host: string;
  domain: string;
  depth: number;
}

let nextUrl = 0;
function sample(x: number[], url = `http://u${nextUrl++}.test/`, domain = 'd.test'): Sample {
  return { x: Float32Array.from(x), url, host: domain, domain, depth: 1 };
}

/** Adds a sample to the tree; returns its id. */
function add(tree: TreeFrontier, s: Sample): number {
  return tree.add(s, 0, s.x);
}

/** A tree split once on feature 0 at 0: leaf 1 holds x[0] <= 0, leaf 2 the rest. */
function twoLeafTree(): TreeFrontier {
  const tree = new TreeFrontier({ featureCount: 2, minSamplesToSplit: 2 });
  tree.addExperience(Float32Array.from([0, 0]), 1);
  expect(tree.addExperience(Float32Array.from([1, 0]), 0)).toBe(true);
  return tree;
}

/** A vector like TRES's: binary, 1/d, a ratio and a continuous probability. */
function randomX(rng: Rng): number[] {
  return [rng.int(2), 1 / (1 + rng.int(5)), rng.int(4) / 4, rng.next()];
}
function rewardOf(x: number[], rng: Rng): number {
  return rng.next() < 0.1 + 0.5 * (x[0] as number) + 0.3 * (x[3] as number) ** 2 ? 1 : 0;
}

describe('TreeFrontier options', () => {
  it('fills in the authors’ defaults', () => {
    const tree = new TreeFrontier({ featureCount: 3 });
    expect(tree.options).toEqual({ featureCount: 3, ...DEFAULT_TREE_FRONTIER_OPTIONS });
    expect(tree.options.maxDepth).toBe(18);
  });

  it.each([
    ['featureCount', { featureCount: 0 }],
    ['maxDepth', { featureCount: 1, maxDepth: -1 }],
    ['minSamplesToSplit', { featureCount: 1, minSamplesToSplit: 0 }],
    ['minSamplesPerSide', { featureCount: 1, minSamplesPerSide: 1.5 }],
    ['minSideFraction', { featureCount: 1, minSideFraction: 0.6 }],
  ])('rejects a bad %s with a ConfigError naming it', (field, options) => {
    expect(() => new TreeFrontier(options)).toThrow(ConfigError);
    expect(() => new TreeFrontier(options)).toThrow(field);
  });
});

describe('TreeFrontier', () => {
  it('keeps every sample in exactly one leaf, the one its rules lead to, through random operations', () => {
    const rng = createRng('tree-property');
    const tree = new TreeFrontier({ featureCount: 4, maxDepth: 8 });
    const present = new Set<number>();
    const keys = new Map<number, Sample>();
    const list: number[] = [];
    let splits = 0;
    for (let step = 0; step < 4000; step++) {
      const op = rng.int(100);
      if (op < 45) {
        const s = sample(randomX(rng), `http://u${rng.int(800)}.test/`, `d${rng.int(30)}.test`);
        const id = add(tree, s);
        expect(present.has(id)).toBe(false);
        present.add(id);
        keys.set(id, s);
        list.push(id);
      } else if (op < 65) {
        const x = randomX(rng);
        if (tree.addExperience(Float32Array.from(x), rewardOf(x, rng))) splits++;
      } else if (op < 85) {
        const id = list[rng.int(list.length || 1)];
        if (id !== undefined) expect(tree.take(id)).toBe(present.delete(id));
      } else if (op < 90) {
        const url = `http://u${rng.int(800)}.test/`;
        const expected = [...present].filter((id) => keys.get(id)!.url === url);
        expect(tree.removeUrl(url)).toBe(expected.length);
        for (const id of expected) present.delete(id);
      } else if (op < 92) {
        const domain = `d${rng.int(30)}.test`;
        const expected = [...present].filter((id) => keys.get(id)!.domain === domain);
        expect(tree.purgeDomain(domain)).toBe(expected.length);
        for (const id of expected) present.delete(id);
      } else {
        const id = list[rng.int(list.length || 1)];
        if (id !== undefined) {
          if (present.has(id)) tree.table.x[id * 4 + 2] = rng.int(4) / 4;
          expect(tree.reroute(id)).toBe(present.has(id));
        }
      }
      if (step % 100 === 0) tree.checkInvariants();
    }
    tree.checkInvariants();
    expect(splits).toBeGreaterThan(20);
    expect(tree.size).toBe(present.size);
    expect(new Set(tree.samples())).toEqual(present);
    for (const id of present) expect(tree.table.url(id)).toBe(keys.get(id)!.url);
  });

  it('never increases the weighted reward variance of a leaf it splits', () => {
    const rng = createRng('tree-variance');
    const tree = new TreeFrontier({ featureCount: 4, minSamplesToSplit: 3 });
    const experiences: { x: Float32Array; r: number }[] = [];
    let splits = 0;
    for (let i = 0; i < 1500; i++) {
      const raw = randomX(rng);
      const x = Float32Array.from(raw);
      const r = rewardOf(raw, rng);
      const leafId = tree.leafOf(x);
      experiences.push({ x, r });
      const before = experiences.filter((e) => tree.leafOf(e.x) === leafId).map((e) => e.r);
      const leavesBefore = new Set(tree.leafIds());
      if (!tree.addExperience(x, r)) continue;
      splits++;
      const mean = before.reduce((a, b) => a + b, 0) / before.length;
      const parentVariance = before.reduce((a, b) => a + (b - mean) ** 2, 0) / before.length;
      const children = tree.leafIds().filter((id) => !leavesBefore.has(id));
      expect(children).toHaveLength(2);
      const stats = children.map((id) => tree.leafStats(id)!);
      expect(stats[0]!.experienceCount + stats[1]!.experienceCount).toBe(before.length);
      const weighted = stats.reduce((a, s) => a + (s.experienceCount / before.length) * s.rewardVariance, 0);
      expect(weighted).toBeLessThan(parentVariance);
      expect(tree.leafStats(leafId)).toBeUndefined(); // the parent is no longer a leaf
    }
    expect(splits).toBeGreaterThan(30);
    tree.checkInvariants();
  });

  it('waits for minSamplesToSplit experiences before trying a split', () => {
    const tree = new TreeFrontier({ featureCount: 1 });
    const rows = [0, 1, 0, 1];
    for (const v of rows) expect(tree.addExperience(Float32Array.of(v), 1 - v)).toBe(false);
    expect(tree.addExperience(Float32Array.of(0), 1)).toBe(true);
    expect(tree.leafCount).toBe(2);
  });

  it('does not split when the gain would be 0 or the sides too small', () => {
    const flat = new TreeFrontier({ featureCount: 1, minSamplesToSplit: 2 });
    for (let i = 0; i < 20; i++) expect(flat.addExperience(Float32Array.of(i % 3), 1)).toBe(false);
    // Each value of x carries rewards 1 and 0, so every rule leaves both sides with mean 0.5.
    const noisy = new TreeFrontier({ featureCount: 1, minSamplesToSplit: 6 });
    const pairs = [
      [0, 1],
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
      [2, 0],
    ] as const;
    for (const [v, r] of pairs) expect(noisy.addExperience(Float32Array.of(v), r)).toBe(false);
    const strict = new TreeFrontier({ featureCount: 1, minSamplesToSplit: 2, minSamplesPerSide: 2 });
    expect(strict.addExperience(Float32Array.of(0), 1)).toBe(false);
    for (let i = 0; i < 10; i++) expect(strict.addExperience(Float32Array.of(1), 0)).toBe(false);
    expect(strict.addExperience(Float32Array.of(0), 1)).toBe(true);
    expect([flat.leafCount, noisy.leafCount]).toEqual([1, 1]);
  });

  it('respects maxDepth: a leaf at maxDepth never splits', () => {
    const rng = createRng('tree-depth');
    for (const maxDepth of [0, 1, 3]) {
      const tree = new TreeFrontier({ featureCount: 4, maxDepth, minSamplesToSplit: 2 });
      for (let i = 0; i < 2000; i++) {
        const x = randomX(rng);
        tree.addExperience(Float32Array.from(x), rewardOf(x, rng));
      }
      expect(tree.depth).toBe(maxDepth);
      expect(tree.leafCount).toBeLessThanOrEqual(2 ** maxDepth);
      for (const id of tree.leafIds()) expect(tree.leafStats(id)!.depth).toBeLessThanOrEqual(maxDepth);
      tree.checkInvariants();
    }
  });

  it('partitions the frontier samples of a split leaf by the same rule', () => {
    const tree = new TreeFrontier({ featureCount: 2, minSamplesToSplit: 2 });
    const samples = [0, 0.5, 1, 1, 0].map((v) => add(tree, sample([v, 0])));
    expect(tree.nonEmptyLeafCount).toBe(1);
    tree.addExperience(Float32Array.of(0, 0), 1);
    expect(tree.addExperience(Float32Array.of(1, 0), 0)).toBe(true);
    expect(tree.nonEmptyLeafCount).toBe(2);
    const left = tree.leafOf(Float32Array.of(0, 0));
    expect(samples.map((s) => tree.leafOfSample(s) === left)).toEqual([true, false, false, false, true]);
    tree.checkInvariants();
  });

  it('keeps the indexes consistent when samples are removed', () => {
    const tree = twoLeafTree();
    const a = sample([0, 0], 'http://a.test/1', 'a.test');
    const b = sample([1, 0], 'http://a.test/1', 'a.test');
    const c = sample([1, 0], 'http://c.test/', 'c.test');
    const [ia, ib, ic] = [a, b, c].map((s) => add(tree, s)) as [number, number, number];
    expect(tree.take(ia)).toBe(true);
    expect(tree.take(ia)).toBe(false);
    expect(tree.has(ia)).toBe(false);
    expect([tree.size, tree.countUrl('http://a.test/1'), tree.countDomain('a.test')]).toEqual([2, 1, 1]);
    expect(tree.nonEmptyLeafCount).toBe(1);
    tree.checkInvariants();
    tree.take(ib);
    tree.take(ic);
    expect([
      tree.size,
      tree.countUrl('http://a.test/1'),
      tree.countDomain('c.test'),
      tree.nonEmptyLeafCount,
    ]).toEqual([0, 0, 0, 0]);
    tree.checkInvariants();
  });

  it('purgeUrl and purgeDomain remove exactly the samples of that URL or domain', () => {
    const tree = twoLeafTree();
    const all = [
      sample([0, 0], 'http://a.test/x', 'a.test'),
      sample([1, 0], 'http://a.test/x', 'a.test'),
      sample([1, 1], 'http://a.test/y', 'a.test'),
      sample([0, 1], 'http://b.test/x', 'b.test'),
      sample([1, 1], 'http://b.test/y', 'b.test'),
    ];
    const ids = all.map((s) => add(tree, s));
    expect(tree.removeUrl('http://a.test/x')).toBe(2);
    expect(tree.removeUrl('http://a.test/x')).toBe(0);
    expect([...tree.samples()]).toEqual([ids[2], ids[3], ids[4]]);
    expect(tree.purgeDomain('b.test')).toBe(2);
    expect([...tree.samples()]).toEqual([ids[2]]);
    expect(tree.countDomain('a.test')).toBe(1);
    expect(tree.countUrl('http://b.test/y')).toBe(0);
    tree.checkInvariants();
  });

  it('draws one representative per non-empty leaf, in ascending leaf order', () => {
    const tree = twoLeafTree();
    const rng = createRng('reps');
    expect(tree.representatives(rng)).toEqual([]);
    const right = add(tree, sample([1, 0]));
    expect(tree.representatives(rng)).toEqual([right]);
    const lefts = [sample([0, 0]), sample([0, 1])].map((s) => add(tree, s));
    for (let i = 0; i < 20; i++) {
      const reps = tree.representatives(rng);
      expect(reps).toHaveLength(2);
      expect(lefts).toContain(reps[0]);
      expect(reps[1]).toBe(right);
    }
  });

  it('draws each representative uniformly from its leaf', () => {
    const tree = twoLeafTree();
    const inLeft = Array.from({ length: 5 }, () => add(tree, sample([0, 0])));
    add(tree, sample([1, 0]));
    const rng = createRng('uniform');
    const counts = new Map<number, number>();
    const draws = 5000;
    for (let i = 0; i < draws; i++) {
      const rep = tree.representatives(rng)[0]!;
      counts.set(rep, (counts.get(rep) ?? 0) + 1);
    }
    const expected = draws / inLeft.length;
    const chiSquare = inLeft.reduce((a, s) => a + ((counts.get(s) ?? 0) - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(18.47); // chi-square, 4 degrees of freedom, p = 0.001
  });

  it('draws the same representatives for the same seed', () => {
    const build = () => {
      const tree = twoLeafTree();
      for (let i = 0; i < 50; i++) add(tree, sample([i % 2, i % 3], `http://s${i}.test/`));
      return tree;
    };
    const draw = (tree: TreeFrontier, seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: 10 }, () =>
        tree.representatives(rng).map((id) => tree.table.url(id)),
      ).join();
    };
    expect(draw(build(), 'same')).toBe(draw(build(), 'same'));
    expect(draw(build(), 'same')).not.toBe(draw(build(), 'other'));
  });

  it('randomSample picks a uniform leaf, then a uniform sample of it', () => {
    const tree = twoLeafTree();
    expect(tree.randomSample(createRng('empty'))).toBeUndefined();
    const lone = add(tree, sample([1, 0]));
    for (let i = 0; i < 9; i++) add(tree, sample([0, 0]));
    const rng = createRng('tree-random');
    let hits = 0;
    for (let i = 0; i < 2000; i++) if (tree.randomSample(rng) === lone) hits++;
    expect(hits).toBeGreaterThan(900);
    expect(hits).toBeLessThan(1100);
  });

  it('reroute moves a sample whose x changed to the leaf its new x routes to', () => {
    const tree = twoLeafTree();
    const s = add(tree, sample([0, 0]));
    const before = tree.leafOfSample(s);
    tree.table.x[s * 2] = 1;
    expect(() => tree.checkInvariants()).toThrow(/rules lead to/);
    expect(tree.reroute(s)).toBe(true);
    expect(tree.leafOfSample(s)).not.toBe(before);
    expect(tree.leafOfSample(s)).toBe(tree.leafOf(tree.table.vector(s)));
    tree.checkInvariants();
    expect(tree.reroute(s + 1)).toBe(false);
  });

  it('rejects vectors of the wrong length or with NaN', () => {
    const tree = new TreeFrontier({ featureCount: 2 });
    add(tree, sample([0, 0]));
    expect(() => add(tree, sample([0]))).toThrow(TresError);
    expect(() => add(tree, sample([0]))).toThrow(/expected 2/);
    expect(() => add(tree, sample([0, Number.NaN]))).toThrow(/NaN/);
    expect(() => tree.addExperience(Float32Array.of(0, 0), Number.NaN)).toThrow(/finite/);
    expect(tree.size).toBe(1);
    tree.checkInvariants();
  });
});
