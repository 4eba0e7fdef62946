/** Small pieces shared by the TRES strategies. */
import type { DdqnAgent } from './ddqn.js';
import type { Transition } from './replay-buffer.js';

/**
 * A replay transition from the vector of the action taken, its reward, and the next-action set:
 * the fetched page's outlinks plus, last in `candidates`, the action chosen next. The chosen one
 * goes first in `nextXs` so that a cap on candidates always keeps it.
 */
export function toTransition(
  x: Float32Array,
  reward: number,
  candidates: readonly Float32Array[],
): Transition {
  const size = x.length;
  const n = candidates.length;
  const nextXs = new Float32Array(n * size); // [n, features]
  if (n > 0) nextXs.set(candidates[n - 1] as Float32Array, 0);
  for (let i = 0; i < n - 1; i++) nextXs.set(candidates[i] as Float32Array, (i + 1) * size);
  return { x, reward, nextXs, isDone: false };
}

/** The agent's metrics as numbers (NaN before the first training step). */
export function agentStats(agent: DdqnAgent): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(agent.stats())) out[key] = value ?? Number.NaN;
  return out;
}

/**
 * Transitions waiting for the next chosen action. The journal text puts the Tree-Frontier's next
 * choice into the double-Q candidate set along with the fetched page's outlinks, so a transition
 * is complete only when the next action is chosen (with K = 1, at the very next decision).
 */
export class PendingTransitions {
  private waiting: {
    x: Float32Array;
    reward: number;
    candidates: Float32Array[] | undefined;
    ids: number[] | undefined;
  }[] = [];

  /**
   * @param vectors where outlinks given as ids keep their vectors (a {@link SampleTable}'s pool,
   *   read when the transition completes, so the ids' columns must stay until then).
   */
  constructor(private readonly vectors?: { readonly x: Float32Array; readonly featureCount: number }) {}

  /** A finished action: its vector, its reward and the vectors of the page's outlinks. */
  push(x: Float32Array, reward: number, outlinks: Float32Array[]): void {
    this.waiting.push({ x, reward, candidates: outlinks, ids: undefined });
  }

  /** A finished action whose outlinks are sample ids of the `vectors` table. */
  pushIds(x: Float32Array, reward: number, outlinkIds: number[]): void {
    this.waiting.push({ x, reward, candidates: undefined, ids: outlinkIds });
  }

  /** Completes every waiting transition with the action just chosen, stores them, trains when due. */
  complete(chosenX: Float32Array, agent: DdqnAgent, step: number): void {
    if (this.store(chosenX, agent)) agent.maybeTrain(step);
  }

  /**
   * Completes every waiting transition with the action just chosen and stores them in the
   * agent's replay, without training. Returns false if none was waiting (then the step is not
   * a training step either: {@link PendingTransitions.complete}).
   */
  store(chosenX: Float32Array, agent: DdqnAgent): boolean {
    if (this.waiting.length === 0) return false;
    for (const t of this.waiting) {
      if (t.ids) {
        agent.observe(this.fromIds(t.x, t.reward, t.ids, chosenX));
        continue;
      }
      const candidates = t.candidates as Float32Array[];
      candidates.push(chosenX);
      agent.observe(toTransition(t.x, t.reward, candidates));
    }
    this.waiting = [];
    return true;
  }

  /** As {@link toTransition} with the outlinks' vectors read from the table: chosen first, then the outlinks. */
  private fromIds(x: Float32Array, reward: number, ids: number[], chosenX: Float32Array): Transition {
    const table = this.vectors!;
    const f = table.featureCount;
    const pool = table.x;
    const nextXs = new Float32Array((ids.length + 1) * f); // [n, features]
    nextXs.set(chosenX, 0);
    for (let i = 0; i < ids.length; i++) {
      const from = (ids[i] as number) * f;
      nextXs.set(pool.subarray(from, from + f), (i + 1) * f);
    }
    return { x, reward, nextXs, isDone: false };
  }

  /** Forgets the waiting transitions (strategies without a Q-network). */
  clear(): void {
    this.waiting = [];
  }
}
