/**
 * The crawl's questions to its user: after each recorded page the loop hands the page here; the
 * {@link QuestionSelector} decides whether it is the one to ask about; an asked question is
 * stored (crawl store, table `questions`), shown to whoever listens (the `question` event, the
 * dashboard through `Crawler.openQuestions`) and handed to the `ask` function, whose promise is
 * never awaited: the loop goes on, and the answer is recorded whenever it comes (as a label with
 * source `answer`, then the `answer` event, on which relevance feedback retrains the judge). A
 * question that gets no answer expires; one answered after that counts for nothing.
 */
import type { Clock, Rng } from '../common/index.js';
import { ConfigError } from '../common/index.js';
import type { CrawlStore, PageLabel, QuestionKind, StoredQuestion } from '../store/index.js';
import type { Action, Outcome } from '../types/index.js';
import { QuestionSelector, termVector } from './question-selector.js';

/** A question the crawl asks its user about one fetched page. */
export interface Question {
  /** From 1, in the order asked (kept across a resume). */
  id: number;
  /** `pages.id` of the page in the crawl store. */
  pageId: number;
  url: string;
  title: string;
  /** The beginning of the page's visible text. */
  excerpt: string;
  /** The judge's P(relevant) of the page. */
  probability: number;
  /** Why this page was chosen, in words. */
  why: string;
  /** Chosen for what its answer would teach the judge, or drawn at random to check it. */
  kind: QuestionKind;
  /** When it was asked, in ms since the epoch. */
  askedAt: number;
  /** When it expires unanswered, in ms since the epoch; undefined: never. */
  expiresAt?: number;
}

/**
 * Asks the user whether a page is relevant: resolves to true (relevant), false (not), or
 * undefined (skipped). The crawl never waits for it; an answer after the question expired is
 * ignored, and a rejection counts as a skip.
 */
export type AskFunction = (question: Question) => Promise<boolean | undefined>;

/** An answered question (the `answer` event of the crawler). */
export interface AnswerEvent {
  question: Question;
  isRelevant: boolean;
  /** The label stored for it (source `answer`). */
  label: PageLabel;
}

/** How the crawl chooses and keeps its questions (the crawler's `questions` option). */
export interface QuestionOptions {
  /** At most one question per this many recorded pages (the window the best page is chosen from). @default 25 */
  everyPages?: number;
  /** Most questions open (asked, not yet answered) at once. @default 3 */
  maxOpen?: number;
  /** An unanswered question expires after this many ms; `false`: never. @default 600_000 */
  expireAfterMs?: number | false;
  /** A page at least this similar (cosine of term vectors) to one asked about before is not asked about. @default 0.6 */
  maxSimilarity?: number;
  /**
   * Least informativeness of a page worth asking about, in [0, 1]: its uncertainty (1 at the
   * relevance threshold, 0 at probability 0 or 1) or the judge's disagreement with the link
   * model. @default 0.2
   */
  minInformativeness?: number;
  /** Characters of the page's text shown with the question. @default 600 */
  excerptChars?: number;
  /**
   * Share of the questions asked about a page drawn uniformly among those crawled, not chosen for
   * what it teaches: their answers are the sample relevance feedback checks a retrained judge on
   * (see question-selector.ts). @default 0.5
   */
  randomShare?: number;
}

/** Defaults of {@link QuestionOptions}. */
export const DEFAULT_QUESTION_OPTIONS: Required<QuestionOptions> = {
  everyPages: 25,
  maxOpen: 3,
  expireAfterMs: 600_000,
  maxSimilarity: 0.6,
  minInformativeness: 0.2,
  excerptChars: 600,
  randomShare: 0.5,
};

/** Candidates kept per window. */
const POOL_SIZE = 4;
/** Characters of a page's text kept with its question, to retrain from without a WARC file. */
const STORED_TEXT_CHARS = 50_000;

/**
 * Fills in the defaults of {@link QuestionOptions} and checks them.
 * @throws ConfigError naming the field (`questions.everyPages`, ...).
 */
export function resolveQuestionOptions(options: QuestionOptions = {}): Required<QuestionOptions> {
  const o = { ...DEFAULT_QUESTION_OPTIONS, ...options };
  const bad = (field: string, what: string, value: unknown) =>
    new ConfigError(`questions.${field} must be ${what}, got ${JSON.stringify(value)}`, {
      context: { field: `questions.${field}` },
    });
  for (const field of ['everyPages', 'maxOpen', 'excerptChars'] as const) {
    if (!Number.isInteger(o[field]) || o[field] < 1) throw bad(field, 'an integer >= 1', o[field]);
  }
  if (o.expireAfterMs !== false && !(o.expireAfterMs > 0))
    throw bad('expireAfterMs', 'a number > 0 or false', o.expireAfterMs);
  if (!(o.maxSimilarity > 0 && o.maxSimilarity <= 1))
    throw bad('maxSimilarity', 'in (0, 1]', o.maxSimilarity);
  if (!(o.minInformativeness >= 0 && o.minInformativeness <= 1))
    throw bad('minInformativeness', 'in [0, 1]', o.minInformativeness);
  if (!(o.randomShare >= 0 && o.randomShare <= 1)) throw bad('randomShare', 'in [0, 1]', o.randomShare);
  return o;
}

/** What the desk needs of the crawl. */
export interface QuestionDeskContext {
  store: CrawlStore;
  clock: Clock;
  /** The desk's own stream (forked off the run seed). */
  rng: Rng;
  threshold: number;
  /** The user's ask function, or `true` when questions are answered through {@link QuestionDesk.answer} only. */
  ask: AskFunction | true;
  maxQuestions: number;
  options: Required<QuestionOptions>;
  onQuestion: (q: Question) => void;
  onAnswer: (a: AnswerEvent) => void;
}

/** The questions of one crawl run (see the file comment). */
export class QuestionDesk {
  private readonly selector: QuestionSelector;
  private readonly open = new Map<number, Question>();
  private asked = 0;
  private isClosed = false;

  constructor(private readonly ctx: QuestionDeskContext) {
    const o = ctx.options;
    this.selector = new QuestionSelector(
      {
        threshold: ctx.threshold,
        everyPages: o.everyPages,
        maxSimilarity: o.maxSimilarity,
        minInformativeness: o.minInformativeness,
        poolSize: POOL_SIZE,
        randomShare: o.randomShare,
      },
      ctx.rng,
    );
    // What earlier runs asked counts against the budget and is not asked again. Their open
    // questions had an asker that is gone: they expire now.
    for (const q of ctx.store.questions()) {
      this.asked++;
      this.selector.markAsked(q.domain, termVector(q.title, q.text), q.kind);
      if (q.status === 'open') ctx.store.settleQuestion(q.id, 'expired');
    }
  }

  /** Questions asked so far (this run and earlier ones). */
  get askedCount(): number {
    return this.asked;
  }

  /** True while the budget (`maxQuestions`) allows another question. */
  get hasQuestionsLeft(): boolean {
    return this.asked < this.ctx.maxQuestions;
  }

  /** The open questions, oldest first (expired ones are closed first). */
  openQuestions(): Question[] {
    this.expire();
    return [...this.open.values()];
  }

  /**
   * A page was recorded: counts it towards the window and may ask about it or a page before it.
   * @param pageId its `pages.id`
   */
  afterPage(pageId: number, action: Action, outcome: Outcome, linkProbability: number | undefined): void {
    if (this.isClosed) return;
    this.expire();
    // With the budget spent no page is asked about again, and scoring one (its term vector and
    // its cosine to every page asked about) takes about 0.2 ms of CPU on the engine benchmark, a
    // tenth of what an asking crawl spends per page.
    if (!this.hasQuestionsLeft) return;
    const isCandidate = outcome.isPage && outcome.isDuplicate !== true;
    const chosen = this.selector.offer(
      isCandidate
        ? {
            pageId,
            url: outcome.finalUrl,
            domain: action.domain,
            title: outcome.title ?? '',
            text: outcome.text ?? '',
            probability: outcome.probability,
            ...(linkProbability === undefined ? {} : { linkProbability }),
          }
        : undefined,
      this.asked < this.ctx.maxQuestions && this.open.size < this.ctx.options.maxOpen,
    );
    if (chosen === undefined) return;
    const now = this.ctx.clock.now();
    const stored = this.ctx.store.addQuestion({
      pageId: chosen.pageId,
      url: chosen.url,
      domain: chosen.domain,
      title: chosen.title,
      text: chosen.text.slice(0, STORED_TEXT_CHARS),
      probability: chosen.probability,
      why: chosen.why,
      askedAt: now,
      kind: chosen.kind,
    });
    this.asked++;
    this.selector.markAsked(chosen.domain, chosen.vector, chosen.kind);
    const question = this.toQuestion(stored);
    this.open.set(question.id, question);
    this.ctx.onQuestion(question);
    const ask = this.ctx.ask;
    if (ask === true) return;
    let answer: Promise<boolean | undefined>;
    try {
      answer = Promise.resolve(ask({ ...question }));
    } catch {
      answer = Promise.resolve(undefined);
    }
    answer.then(
      (value) => this.answer(question.id, value === true || value === false ? value : undefined),
      () => this.answer(question.id, undefined),
    );
  }

  /**
   * Answers open question `id`: true or false stores a label (source `answer`) and emits the
   * `answer` event; undefined skips it. Returns false when the question is not open (answered,
   * skipped, expired, unknown) or the crawl has ended.
   */
  answer(id: number, isRelevant: boolean | undefined): boolean {
    if (this.isClosed) return false;
    this.expire();
    const question = this.open.get(id);
    if (question === undefined) return false;
    this.open.delete(id);
    if (isRelevant === undefined) {
      this.ctx.store.settleQuestion(id, 'skipped');
      return true;
    }
    const label = this.ctx.store.addLabel(question.pageId, isRelevant, 'answer');
    this.ctx.store.settleQuestion(id, 'answered');
    this.ctx.onAnswer({ question, isRelevant, label });
    return true;
  }

  /** The crawl is ending: open questions expire, later answers are ignored. */
  close(): void {
    if (this.isClosed) return;
    for (const id of this.open.keys()) this.ctx.store.settleQuestion(id, 'expired');
    this.open.clear();
    this.isClosed = true;
  }

  private expire(): void {
    const ttl = this.ctx.options.expireAfterMs;
    if (ttl === false || this.open.size === 0) return;
    const now = this.ctx.clock.now();
    for (const [id, q] of this.open) {
      if (now - q.askedAt < ttl) continue;
      this.open.delete(id);
      this.ctx.store.settleQuestion(id, 'expired');
    }
  }

  private toQuestion(q: StoredQuestion): Question {
    const ttl = this.ctx.options.expireAfterMs;
    const n = this.ctx.options.excerptChars;
    const text = q.text.replace(/\s+/g, ' ').trim();
    return {
      id: q.id,
      pageId: q.pageId,
      url: q.url,
      title: q.title,
      excerpt: text.length > n ? `${text.slice(0, n)}…` : text,
      probability: q.probability,
      why: q.why,
      kind: q.kind,
      askedAt: q.askedAt,
      ...(ttl === false ? {} : { expiresAt: q.askedAt + ttl }),
    };
  }
}
