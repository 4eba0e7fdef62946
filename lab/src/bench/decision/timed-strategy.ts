/**
 * A strategy wrapper that times every decision: `next` (select among representatives, update the
 * tree, learn from the waiting transitions) plus `observe` (route the new outlinks, add the
 * experience, maybe split). Together they are one decision of the MDP, everything but the fetch.
 *
 * Besides the wall time it records what tells work from waiting on a shared machine: the time
 * the main thread waited, runnable, for a CPU other processes held (Linux schedstat, see
 * `thread-schedstat.ts`), and, when the strategy reports them through its {@link PhaseTimer},
 * the time of each phase. GC pauses are matched to decisions afterwards from
 * each decision's spans (`decision-tail.ts`).
 */

import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from 'tres-crawler';
import type { LinkContextWindow } from 'tres-crawler/internals';
import { type PhaseTimer, TRES_PHASES, type TresPhase } from 'tres-crawler/internals';
import { ThreadSchedstat } from './thread-schedstat.js';

/** One step's record. */
export interface DecisionRecord {
  step: number;
  /** Wall time of next() + observe() of this step, in milliseconds. */
  decisionMs: number;
  /**
   * Time the main thread waited, runnable, for a CPU during the decision, ms (NaN without
   * schedstat). Measured over `measuredMs`, which also holds the counter's reads.
   */
  waitMs: number;
  /** Wall time of the same spans including the reads of the counters around them, ms. */
  measuredMs: number;
  /** Wall-clock spans of next() and observe(): [nextStart, nextEnd, observeStart, observeEnd], ms. */
  spans: [number, number, number, number];
  /** Milliseconds per phase in {@link TRES_PHASES} order (zeros when the strategy reports none). */
  phaseMs: Float64Array;
  frontierSize: number;
  leaves: number;
  /** Q evaluations made by this step's next(). */
  qEvaluations: number;
}

const PHASE_INDEX = new Map<TresPhase, number>(TRES_PHASES.map((p, i) => [p, i]));

/** The clock of the decision benchmark: `performance.now()`. */
const now = () => performance.now();

export class TimedStrategy implements Strategy, PhaseTimer {
  readonly records: DecisionRecord[] = [];
  /** True if the wait for a CPU is measured (Linux schedstat); else `waitMs` is NaN. */
  get hasWait(): boolean {
    return this.sched.hasWait;
  }
  private readonly inner: Strategy;
  private pendingMs = 0;
  private pendingWaitMs = 0;
  private pendingMeasuredMs = 0;
  private readonly sched = new ThreadSchedstat();
  private nextSpan: [number, number] = [0, 0];
  private lastQ = 0;
  private phases = new Float64Array(TRES_PHASES.length);

  /** @param create builds the strategy, given this wrapper as its phase timer (strategies that take one). */
  constructor(create: (timer: PhaseTimer) => Strategy) {
    this.inner = create(this);
  }

  now(): number {
    return now();
  }

  add(phase: TresPhase, ms: number): void {
    const i = PHASE_INDEX.get(phase) as number;
    this.phases[i] = (this.phases[i] as number) + ms;
  }

  get name(): string {
    return this.inner.name;
  }

  get needsAnchorScores(): boolean | undefined {
    return this.inner.needsAnchorScores;
  }

  get needsLinkContext(): boolean | undefined {
    return this.inner.needsLinkContext;
  }

  get linkContextWindow(): Readonly<LinkContextWindow> | undefined {
    return this.inner.linkContextWindow;
  }

  seed(links: DiscoveredLink[]): void {
    this.inner.seed(links);
  }

  next(ctx: SelectionContext): Action | undefined {
    const q0 = this.inner.stats()['rl/q_evaluations'] ?? 0;
    this.phases = new Float64Array(TRES_PHASES.length);
    const outer = now();
    const w0 = this.sched.waitMs();
    const t = now();
    const action = this.inner.next(ctx);
    const end = now();
    const w1 = this.sched.waitMs();
    this.pendingMeasuredMs = now() - outer;
    this.pendingMs = end - t;
    this.nextSpan = [t, end];
    this.pendingWaitMs = w1 - w0;
    this.lastQ = (this.inner.stats()['rl/q_evaluations'] ?? 0) - q0;
    return action;
  }

  observe(outcome: Outcome): void {
    const outer = now();
    const w0 = this.sched.waitMs();
    const t = now();
    this.inner.observe(outcome);
    const end = now();
    const w1 = this.sched.waitMs();
    const measuredMs = now() - outer + this.pendingMeasuredMs;
    const ms = end - t + this.pendingMs;
    const waitMs = w1 - w0 + this.pendingWaitMs;
    this.pendingMs = 0;
    this.pendingWaitMs = 0;
    this.pendingMeasuredMs = 0;
    if (outcome.isReplay) return;
    const stats = this.inner.stats();
    this.records.push({
      step: this.records.length + 1,
      decisionMs: ms,
      waitMs,
      measuredMs,
      spans: [this.nextSpan[0], this.nextSpan[1], t, end],
      phaseMs: this.phases,
      frontierSize: stats['frontier/size'],
      leaves: stats['frontier/leaves'] ?? 1,
      qEvaluations: this.lastQ,
    });
  }

  stats(): StrategyStats {
    return this.inner.stats();
  }
}
