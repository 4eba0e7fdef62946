import { describe, expect, it } from 'vitest';
import { createRng } from '../common/index.js';
import {
  cosine,
  disagreement,
  type QuestionCandidate,
  QuestionSelector,
  termVector,
  uncertainty,
} from './question-selector.js';

const options = {
  threshold: 0.5,
  everyPages: 3,
  maxSimilarity: 0.6,
  minInformativeness: 0.2,
  poolSize: 4,
  randomShare: 0,
};
const page = (n: number, domain: string, probability: number, text: string): QuestionCandidate => ({
  pageId: n,
  url: `http://${domain}/${n}`,
  domain,
  title: '',
  text,
  probability,
});

describe('question selection maths', () => {
  it('uncertainty is 1 at the threshold and falls linearly to 0 at each end, each side by its own width', () => {
    expect(uncertainty(0.5, 0.5)).toBe(1);
    expect(uncertainty(0, 0.5)).toBe(0);
    expect(uncertainty(1, 0.5)).toBe(0);
    expect(uncertainty(0.25, 0.5)).toBeCloseTo(0.5);
    // Threshold 0.8: 0.4 is halfway down the lower side, 0.9 halfway up the upper one.
    expect(uncertainty(0.4, 0.8)).toBeCloseTo(0.5);
    expect(uncertainty(0.9, 0.8)).toBeCloseTo(0.5);
  });

  it('disagreement counts only when judge and link model fall on opposite sides of the threshold', () => {
    expect(disagreement(0.1, 0.9, 0.5)).toBeCloseTo(0.8);
    expect(disagreement(0.9, 0.6, 0.5)).toBe(0);
    expect(disagreement(0.49, 0.5, 0.5)).toBeCloseTo(0.01);
  });

  it('term vectors are unit length with sublinear counts; cosine of hand-computed vectors', () => {
    // "star star sky": weights 1 + ln 2 and 1, over their norm.
    const a = termVector('', 'star star sky');
    const w = 1 + Math.log(2);
    const norm = Math.sqrt(w * w + 1);
    expect(a.get('star')).toBeCloseTo(w / norm);
    expect(a.get('sky')).toBeCloseTo(1 / norm);
    const b = termVector('sky', ''); // the title counts as words too
    expect(cosine(a, b)).toBeCloseTo(1 / norm);
    expect(cosine(a, a)).toBeCloseTo(1);
    expect(cosine(a, termVector('', 'soup'))).toBe(0);
    expect(termVector('', '42 !!').size).toBe(0);
  });
});

describe('QuestionSelector', () => {
  it('scores informativeness x (1 - similarity) and refuses pages too sure, too similar or from an asked site', () => {
    const s = new QuestionSelector(options, createRng('t'));
    expect(s.score(page(1, 'a.test', 0.95, 'star telescope'))).toBeUndefined(); // uncertainty 0.1
    const fresh = s.score(page(2, 'a.test', 0.5, 'star telescope'))!;
    expect(fresh.score).toBe(1);
    expect(fresh.similarity).toBe(0);
    s.markAsked('a.test', termVector('', 'star telescope mirror'));
    expect(s.score(page(3, 'a.test', 0.5, 'soup'))).toBeUndefined(); // site asked about
    expect(s.score(page(4, 'b.test', 0.5, 'star telescope'))).toBeUndefined(); // cosine 0.82 >= 0.6
    const unlike = s.score(page(5, 'c.test', 0.4, 'star soup onion carrot'))!;
    const sim = cosine(termVector('', 'star soup onion carrot'), termVector('', 'star telescope mirror'));
    expect(unlike.similarity).toBeCloseTo(sim);
    expect(unlike.score).toBeCloseTo(0.8 * (1 - sim));
    expect(unlike.why).toContain('no page of c.test was asked about yet');
    // The link model's disagreement makes a confident page worth asking about.
    const disputed = s.score({ ...page(6, 'd.test', 0.05, 'pasta'), linkProbability: 0.95 })!;
    expect(disputed.score).toBeCloseTo(0.9);
    expect(disputed.why).toContain('its link looked relevant');
  });

  it('asks at most once per window of everyPages pages, one page per site, and only when allowed', () => {
    const s = new QuestionSelector(options, createRng('t'));
    expect(s.offer(page(1, 'a.test', 0.5, 'alpha'), true)).toBeUndefined();
    expect(s.offer(page(2, 'a.test', 0.45, 'beta'), true)).toBeUndefined();
    // Window full, but not allowed to ask: keeps waiting with its candidates.
    expect(s.offer(undefined, false)).toBeUndefined();
    const chosen = s.offer(undefined, true);
    expect(chosen?.pageId).toBe(1); // a.test's best; its other page left the pool
    s.markAsked('a.test', chosen!.vector);
    expect(s.offer(page(3, 'b.test', 0.5, 'gamma'), true)).toBeUndefined();
    expect(s.offer(page(4, 'a.test', 0.5, 'delta'), true)).toBeUndefined(); // a.test was asked
    expect(s.offer(undefined, true)?.pageId).toBe(3);
    // A window with no candidate asks nothing.
    for (let i = 0; i < 5; i++) expect(s.offer(undefined, true)).toBeUndefined();
  });

  it('draws from the pool in proportion to score with its seeded stream', () => {
    const counts = new Map<number, number>();
    const rng = createRng('draws');
    for (let run = 0; run < 2000; run++) {
      const s = new QuestionSelector({ ...options, everyPages: 2 }, rng);
      s.offer(page(1, 'a.test', 0.5, 'alpha'), true); // score 1
      const c = s.offer(page(2, 'b.test', 0.25, 'beta'), true); // score 0.5
      counts.set(c!.pageId, (counts.get(c!.pageId) ?? 0) + 1);
    }
    expect((counts.get(1) ?? 0) / 2000).toBeCloseTo(2 / 3, 1);
    const again = (seed: string) => {
      const s = new QuestionSelector({ ...options, everyPages: 2 }, createRng(seed));
      s.offer(page(1, 'a.test', 0.5, 'alpha'), true);
      return s.offer(page(2, 'b.test', 0.25, 'beta'), true)!.pageId;
    };
    expect(Array.from({ length: 20 }, (_, i) => again(`s${i}`))).toEqual(
      Array.from({ length: 20 }, (_, i) => again(`s${i}`)),
    );
  });

  it('with randomShare 0.5 every second question is a page drawn uniformly from its window, sure or not, asked site or not', () => {
    const s = new QuestionSelector({ ...options, everyPages: 4, randomShare: 0.5 }, createRng('kinds'));
    s.markAsked('old.test', termVector('', 'zebra'));
    const kinds: string[] = [];
    const drawn = new Map<number, number>();
    // A word of its own for each window (the tokenizer keeps letters only), so no page is a near copy.
    const word = (n: number) =>
      n.toString(26).replace(/./g, (d) => String.fromCharCode(97 + Number.parseInt(d, 26)));
    for (let w = 0; w < 400; w++) {
      let chosen: ReturnType<QuestionSelector['offer']>;
      // Four pages a window: two too sure to be informative, one from a site asked about.
      const base = w * 4;
      for (const [i, p] of [
        page(base + 1, `u${w}.test`, 0.5, `uncertain q${word(w)}`),
        page(base + 2, `s${w}.test`, 0.99, `sure q${word(w)}`),
        page(base + 3, `t${w}.test`, 0.01, `surenot q${word(w)}`),
        page(base + 4, 'old.test', 0.5, `askedsite q${word(w)}`),
      ].entries()) {
        chosen = s.offer(p, true);
        if (i < 3) expect(chosen).toBeUndefined();
      }
      kinds.push(chosen!.kind);
      if (chosen!.kind === 'random') {
        const slot = chosen!.pageId - base;
        drawn.set(slot, (drawn.get(slot) ?? 0) + 1);
        expect(chosen!.why).toContain('drawn at random among the last 4 pages');
      } else expect(chosen!.pageId).toBe(base + 1);
      s.markAsked(chosen!.domain, chosen!.vector, chosen!.kind);
    }
    // old.test's question (informative) counts: the first of this run is random.
    expect(kinds.slice(0, 4)).toEqual(['random', 'informative', 'random', 'informative']);
    // 200 random questions over 4 slots: each near 50 (a binomial spread of about 6).
    for (const slot of [1, 2, 3, 4]) expect(drawn.get(slot) ?? 0).toBeGreaterThan(25);
  });
});
