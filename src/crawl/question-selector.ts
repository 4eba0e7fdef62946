/**
 * Which fetched page to ask the user about: the one whose label would teach the judge most.
 * A page is worth asking about when
 * - the judge is unsure of it: its probability is near the relevance threshold, or the link
 *   model (what the strategy expected of the link) and the judge fall on opposite sides of it;
 * - its site has not been asked about yet (one answer per site spreads the labels over the web);
 * - it is unlike the pages asked about before: the largest cosine similarity of its term vector
 *   to theirs is below a bound (a near copy of a labelled page teaches little).
 * Score = informativeness x (1 - similarity). Over a window of `everyPages` pages the selector
 * keeps the best few candidates (one per site) and, when the window closes, draws one with
 * probability proportional to its score from a seeded stream: among candidates nearly as good,
 * the judge's own bias (say, all near-threshold pages from one kind of site) does not decide
 * every question.
 *
 * A share of the questions (`randomShare`) is not chosen for what it teaches but drawn uniformly
 * among the window's pages (a reservoir of one, from its own seeded stream), whatever their site:
 * informative questions are mostly pages near the threshold, so their answers say little about
 * how often a judge is right on the crawl's pages, and a retrained judge that looks better on them
 * can be worse on the crawl. The random questions' answers are the unbiased sample that relevance
 * feedback accepts or refuses a retrained judge on.
 */
import type { Rng } from '../common/index.js';
import type { QuestionKind } from '../store/index.js';
import { tokenize } from '../text/index.js';

/** A sparse term vector: word -> weight, of unit length (empty for a page without words). */
export type TermVector = Map<string, number>;

/** Characters of a page's text read for its term vector (its beginning says what it is about). */
const VECTOR_TEXT_CHARS = 20_000;

/**
 * Term vector of a page: sublinear term frequency (1 + ln tf) of its title and text words
 * (stopwords dropped), scaled to unit length.
 */
export function termVector(title: string, text: string): TermVector {
  const counts = new Map<string, number>();
  const words = tokenize(
    `${title} ${text.length > VECTOR_TEXT_CHARS ? text.slice(0, VECTOR_TEXT_CHARS) : text}`,
  );
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  let norm = 0;
  for (const [w, n] of counts) {
    const weight = 1 + Math.log(n);
    counts.set(w, weight);
    norm += weight * weight;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [w, weight] of counts) counts.set(w, weight / norm);
  return counts;
}

/** Cosine similarity of two unit term vectors, in [0, 1] (0 when either is empty). */
export function cosine(a: TermVector, b: TermVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [w, x] of small) {
    const y = large.get(w);
    if (y !== undefined) dot += x * y;
  }
  return Math.min(1, dot);
}

/**
 * How unsure a judge is of a page: 1 at the threshold, falling linearly to 0 at probability 0 and
 * at 1 (each side scaled by its own width, so a threshold of 0.8 does not make every page below it
 * look certain).
 */
export function uncertainty(probability: number, threshold: number): number {
  const width = probability >= threshold ? 1 - threshold : threshold;
  if (width <= 0) return 0;
  return Math.max(0, 1 - Math.abs(probability - threshold) / width);
}

/**
 * How much the judge and the link model disagree: the distance between their probabilities when
 * they fall on opposite sides of the threshold, else 0 (agreeing on the class teaches nothing).
 */
export function disagreement(probability: number, linkProbability: number, threshold: number): number {
  return probability >= threshold === linkProbability >= threshold
    ? 0
    : Math.abs(probability - linkProbability);
}

/** A fetched page the selector may ask about. */
export interface QuestionCandidate {
  /** `pages.id` of the recorded page. */
  pageId: number;
  url: string;
  /** The page's site (as the crawl counts sites). */
  domain: string;
  title: string;
  text: string;
  /** The judge's P(relevant). */
  probability: number;
  /** What the link model expected of the page, when the strategy says (see `Strategy.linkProbability`). */
  linkProbability?: number;
}

/** A candidate with its score and the reasons for it. */
export interface ScoredCandidate extends QuestionCandidate {
  score: number;
  uncertainty: number;
  disagreement: number;
  /** Largest cosine similarity to the pages asked about before (0: none asked). */
  similarity: number;
  vector: TermVector;
  /** Why it was chosen, in words, for the person who answers. */
  why: string;
  kind: QuestionKind;
}

/** Options of {@link QuestionSelector}. */
export interface QuestionSelectorOptions {
  /** The crawl's relevance threshold. */
  threshold: number;
  /** Pages in one window: at most one question per this many recorded pages. */
  everyPages: number;
  /** A page at least this similar (cosine) to a page asked about before is not asked about. */
  maxSimilarity: number;
  /** Least informativeness (uncertainty or disagreement) of a page worth asking about. */
  minInformativeness: number;
  /** Candidates kept per window (the best, one per site). */
  poolSize: number;
  /** Share of the questions drawn uniformly among the window's pages instead (see the file comment). */
  randomShare: number;
}

/** Picks the pages to ask about, one per window of pages (see the file comment). */
export class QuestionSelector {
  private readonly askedDomains = new Set<string>();
  private readonly known: TermVector[] = [];
  private pool: ScoredCandidate[] = [];
  private pagesInWindow = 0;
  /** One page drawn uniformly among the window's candidates so far, and how many there were. */
  private reservoir: QuestionCandidate | undefined;
  private candidatesInWindow = 0;
  private readonly reservoirRng: Rng;
  private readonly askedByKind = { informative: 0, random: 0 };

  constructor(
    private readonly o: QuestionSelectorOptions,
    private readonly rng: Rng,
  ) {
    this.reservoirRng = rng.fork('random-questions');
  }

  /** A page asked about (now or by an earlier run): its site is not asked again, its words are known. */
  markAsked(domain: string, vector: TermVector, kind: QuestionKind = 'informative'): void {
    this.askedDomains.add(domain);
    this.known.push(vector);
    this.pool = this.pool.filter((c) => c.domain !== domain);
    this.askedByKind[kind]++;
  }

  /** The kind the next question will be: random while they are under `randomShare` of all questions. */
  nextKind(): QuestionKind {
    const { informative, random } = this.askedByKind;
    return random + 1 <= this.o.randomShare * (informative + random + 1) ? 'random' : 'informative';
  }

  /** True once a page of `domain` was asked about. */
  isAsked(domain: string): boolean {
    return this.askedDomains.has(domain);
  }

  /** Scores a page, or undefined when it is not worth asking about. */
  score(c: QuestionCandidate): ScoredCandidate | undefined {
    if (this.askedDomains.has(c.domain)) return undefined;
    const u = uncertainty(c.probability, this.o.threshold);
    const d =
      c.linkProbability === undefined ? 0 : disagreement(c.probability, c.linkProbability, this.o.threshold);
    const informativeness = Math.max(u, d);
    if (informativeness < this.o.minInformativeness) return undefined;
    // The vector only for pages that got this far: tokenizing every page would cost the loop.
    const vector = termVector(c.title, c.text);
    if (vector.size === 0) return undefined;
    let similarity = 0;
    for (const k of this.known) similarity = Math.max(similarity, cosine(vector, k));
    if (similarity >= this.o.maxSimilarity) return undefined;
    const score = informativeness * (1 - similarity);
    return {
      ...c,
      score,
      uncertainty: u,
      disagreement: d,
      similarity,
      vector,
      kind: 'informative',
      why: this.why(c, u, d, similarity),
    };
  }

  /**
   * Counts one recorded page and considers it. When the window of `everyPages` pages is full and
   * `canAsk` is true, returns the chosen candidate and starts a new window; otherwise undefined
   * (a full window waits, keeping its candidates, until a question may be asked).
   */
  offer(c: QuestionCandidate | undefined, canAsk: boolean): ScoredCandidate | undefined {
    this.pagesInWindow++;
    if (c !== undefined && this.o.randomShare > 0) {
      this.candidatesInWindow++;
      if (this.reservoirRng.next() * this.candidatesInWindow < 1) this.reservoir = c;
    }
    const scored = c === undefined ? undefined : this.score(c);
    if (scored) this.keep(scored);
    if (!canAsk || this.pagesInWindow < this.o.everyPages) return undefined;
    const chosen =
      this.nextKind() === 'random' ? this.randomQuestion() : this.pool.length > 0 ? this.draw() : undefined;
    if (chosen === undefined) return undefined;
    this.pool = [];
    this.pagesInWindow = 0;
    this.reservoir = undefined;
    this.candidatesInWindow = 0;
    return chosen;
  }

  /** The window's uniformly drawn page as a question, or undefined when the window had none. */
  private randomQuestion(): ScoredCandidate | undefined {
    const c = this.reservoir;
    if (c === undefined) return undefined;
    const u = uncertainty(c.probability, this.o.threshold);
    const vector = termVector(c.title, c.text);
    let similarity = 0;
    for (const k of this.known) similarity = Math.max(similarity, cosine(vector, k));
    return {
      ...c,
      score: 0,
      uncertainty: u,
      disagreement: 0,
      similarity,
      vector,
      kind: 'random',
      why: `drawn at random among the last ${this.candidatesInWindow} pages crawled, to measure how often the judge is right (it gives ${c.probability.toFixed(2)}, threshold ${this.o.threshold})`,
    };
  }

  /** Keeps the best `poolSize` candidates, one per site. */
  private keep(s: ScoredCandidate): void {
    const same = this.pool.findIndex((p) => p.domain === s.domain);
    if (same >= 0) {
      if ((this.pool[same] as ScoredCandidate).score >= s.score) return;
      this.pool.splice(same, 1);
    }
    this.pool.push(s);
    // Ties by URL, so the pool does not depend on arrival order among equals.
    this.pool.sort((a, b) => b.score - a.score || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    if (this.pool.length > this.o.poolSize) this.pool.length = this.o.poolSize;
  }

  /** One candidate of the pool, with probability proportional to its score. */
  private draw(): ScoredCandidate {
    const total = this.pool.reduce((n, c) => n + c.score, 0);
    let r = this.rng.next() * total;
    for (const c of this.pool) {
      r -= c.score;
      if (r < 0) return c;
    }
    return this.pool[this.pool.length - 1] as ScoredCandidate;
  }

  private why(c: QuestionCandidate, u: number, d: number, similarity: number): string {
    const t = this.o.threshold;
    const p = c.probability.toFixed(2);
    const reasons: string[] = [];
    if (d > u && c.linkProbability !== undefined) {
      reasons.push(
        `the judge gives it ${p} but its link looked ${c.linkProbability >= t ? 'relevant' : 'irrelevant'} (${c.linkProbability.toFixed(2)})`,
      );
    } else {
      reasons.push(`the judge is unsure: P(relevant) ${p}, threshold ${t}`);
    }
    reasons.push(`no page of ${c.domain} was asked about yet`);
    reasons.push(
      this.known.length === 0
        ? 'the first question'
        : `unlike the ${this.known.length} page${this.known.length === 1 ? '' : 's'} asked about before (similarity at most ${similarity.toFixed(2)})`,
    );
    return reasons.join('; ');
  }
}
