/**
 * The phases of one TRES decision (next() + observe()), for the decision benchmark: a strategy
 * given a {@link PhaseTimer} reports how long each phase took, so that a slow decision can be
 * told apart as work (and which work) or as time the process was not running. Off (no clock
 * read at all) when no timer is given, which is how crawls run.
 */

/** The phases, in the order a decision runs them. */
export const TRES_PHASES = [
  /** Tree-Frontier draw: one representative per non-empty leaf, purging stale ones. */
  'draw',
  /** Refresh the representatives' domain features and evaluate Q on them. */
  'choose',
  /** Complete the waiting transitions with the chosen action and store them in the replay. */
  'store',
  /** Double DQN training step when due (every `trainEvery` steps) and target-network copy. */
  'train',
  /** Remove the fetched URL's other samples from the frontier. */
  'purge',
  /** Domain statistics, the experience in its leaf and the leaf's split search (and split). */
  'experience',
  /** Encode the page's outlinks and add them to the frontier (tree routing, table growth). */
  'outlinks',
] as const;

/** One phase of a decision. */
export type TresPhase = (typeof TRES_PHASES)[number];

/** Receives the duration of each phase. The benchmark implements it; crawls pass none. */
export interface PhaseTimer {
  /** The benchmark's clock, in milliseconds (e.g. `performance.now`). */
  now(): number;
  /** `ms` spent in `phase` (called once per phase per decision, in {@link TRES_PHASES} order). */
  add(phase: TresPhase, ms: number): void;
}

/** Laps of a {@link PhaseTimer}: each lap charges the time since the previous one to a phase. */
export class PhaseLaps {
  private last = 0;

  constructor(private readonly timer: PhaseTimer | undefined) {}

  /** Starts timing (the next lap counts from here). */
  start(): void {
    if (this.timer) this.last = this.timer.now();
  }

  /** Charges the time since the last start or lap to `phase`. */
  lap(phase: TresPhase): void {
    if (!this.timer) return;
    const now = this.timer.now();
    this.timer.add(phase, now - this.last);
    this.last = now;
  }
}
