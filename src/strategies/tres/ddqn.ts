/**
 * TRES's learner (section 2.4.2): Double DQN (van Hasselt et al. 2016) over state-action vectors,
 * with experience replay and a target network. Each replayed transition (x, r, A', done) is
 * regressed towards
 *
 *   y = r + gamma * Q_target(x_{a*}),   a* = argmax_{a in A'} Q_online(x_a)   (y = r if done or A' empty)
 *
 * where A' is the fetched page's outlinks plus the action the Tree-Frontier returned next (the
 * journal text; the authors' code used the outlinks alone). No epsilon-greedy here: exploration
 * is the caller's (warm-up of random leaf choices, one random representative per leaf).
 *
 * Read {@link DdqnAgent.computeTargets} top to bottom for the update; the one line where Double
 * DQN differs from DQN is marked there.
 */

import type { Rng } from '../../common/index.js';
import { ConfigError } from '../../common/index.js';
import type { QNetwork, QNetworkFactory } from '../../rl/index.js';
import { Mlp, type MlpJson } from '../../rl/index.js';
import { type DdqnConfig, resolveDdqnConfig } from './ddqn-config.js';
import { ReplayBuffer, type ReplaySnapshot, type Transition } from './replay-buffer.js';

/** Construction options of a {@link DdqnAgent}. */
export interface DdqnAgentOptions {
  /** Overrides of {@link DEFAULT_DDQN_CONFIG}; checked once (ConfigError naming the field). */
  config?: Partial<DdqnConfig>;
  /** Run stream; the agent forks `q-network` (initial weights) and `replay` (sampling) off it. */
  rng: Rng;
  /** Builds the online network (the target starts as its copy). @default an {@link Mlp} */
  createNetwork?: QNetworkFactory;
}

/** Metrics under the shared names; NaN until the first training step (null in JSON). */
export interface DdqnStats {
  /** MSE of the last training batch against its targets. */
  'rl/td_loss': number;
  /** Mean online Q of the last batch's taken actions, before the step. */
  'rl/q_mean': number;
  /** Training steps so far. */
  'rl/train_steps': number;
  /** Target-network copies so far. */
  'rl/target_updates': number;
  /** Transitions in the replay buffer. */
  'rl/replay_size': number;
}

/** A checkpoint of the agent's networks and counters (not the replay buffer). */
export interface DdqnCheckpoint {
  config: DdqnConfig;
  online: unknown;
  target: unknown;
  trainSteps: number;
  targetUpdates: number;
}

/** Everything the agent has learned, for a resume: {@link DdqnAgent.learnedState}. */
export interface DdqnLearnedState {
  online: MlpJson;
  target: MlpJson;
  trainSteps: number;
  targetUpdates: number;
  /** The last step given to maybeTrain (-1: none). */
  lastStep: number;
  /** Position of the replay-sampling stream. */
  replayRng: number[];
  replay: ReplaySnapshot;
}

/** Grows a scratch array to at least `n` entries (doubling), keeping the hot path allocation-free. */
function grow<T extends Float32Array | Int32Array>(a: T, n: number, make: (n: number) => T): T {
  return a.length >= n ? a : make(Math.max(n, a.length * 2));
}

/** Double DQN agent with replay and a target network. */
export class DdqnAgent {
  readonly config: Readonly<DdqnConfig>;
  readonly replay: ReplayBuffer;
  /** The network that is trained and that scores actions for the policy. */
  readonly online: QNetwork;
  /** The lagging copy that scores the bootstrap target. */
  readonly target: QNetwork;
  private readonly replayRng: Rng;
  private lastStep = -1;
  private trainSteps = 0;
  private targetUpdates = 0;
  private lastLoss = Number.NaN;
  private lastQMean = Number.NaN;
  // scratch buffers of the training step, grown on demand
  private slots: Int32Array;
  private batchXs: Float32Array; // [batch, f]
  private batchQ: Float32Array; // [batch]
  private targets: Float32Array; // [batch]
  private candidateXs = new Float32Array(0); // [candidates of the batch, f]
  private candidateQ = new Float32Array(0); // [candidates of the batch]
  private chosenXs = new Float32Array(0); // [batch, f]
  private chosenQ = new Float32Array(0); // [batch]
  private chosenOf = new Int32Array(0); // [batch] row in chosenXs, or -1

  /** Throws ConfigError if a config field is out of range. */
  constructor(options: DdqnAgentOptions) {
    this.config = resolveDdqnConfig(options.config);
    const c = this.config;
    const create: QNetworkFactory =
      options.createNetwork ??
      ((inputSize, rng) =>
        new Mlp(
          {
            inputSize,
            hiddenSizes: c.hiddenSizes,
            leakySlope: c.leakySlope,
            learningRate: c.learningRate,
            beta1: c.adamBeta1,
            beta2: c.adamBeta2,
            epsilon: c.adamEpsilon,
            clipValue: c.clipValue,
          },
          rng,
        ));
    this.online = create(c.featureCount, options.rng.fork('q-network'));
    this.target = create(c.featureCount, options.rng.fork('q-network'));
    this.target.copyFrom(this.online);
    this.replayRng = options.rng.fork('replay');
    this.replay = new ReplayBuffer({
      capacity: c.replayCapacity,
      featureCount: c.featureCount,
      maxCandidates: c.maxNextCandidates,
    });
    this.slots = new Int32Array(c.batchSize);
    this.batchXs = new Float32Array(c.batchSize * c.featureCount);
    this.batchQ = new Float32Array(c.batchSize);
    this.targets = new Float32Array(c.batchSize);
  }

  /** Online Q of `n` state-action vectors. `xs`: [n, featureCount]; returns [n] (into `out` if given). */
  q(xs: Float32Array, n: number, out?: Float32Array): Float32Array {
    return this.online.predict(xs, n, out);
  }

  /** The last step given to {@link DdqnAgent.maybeTrain} (-1: none). */
  get learnedStep(): number {
    return this.lastStep;
  }

  /** True while `step` is in the warm-up (the policy should choose leaves at random). */
  isWarmingUp(step: number): boolean {
    return step < this.config.warmupSteps;
  }

  /** Adds a transition to the replay buffer (copied). Throws RangeError on wrong shapes. */
  observe(transition: Transition): void {
    this.replay.add(transition);
  }

  /**
   * Call once per crawl step, with strictly increasing `step`. Trains one batch when the step is
   * past the warm-up and a multiple of `trainEvery` (and the replay is not empty; never when
   * `isLearning` is false), then copies the
   * target network when the step is a multiple of `targetUpdateEvery` (the reference code counts
   * crawl steps, not training steps). Returns the batch loss, or undefined when it did not train.
   */
  maybeTrain(step: number): number | undefined {
    if (!Number.isInteger(step) || step <= this.lastStep)
      throw new RangeError(`maybeTrain needs an integer step above ${this.lastStep}, got ${step}`);
    this.lastStep = step;
    const c = this.config;
    let loss: number | undefined;
    if (c.isLearning && step >= c.warmupSteps && step % c.trainEvery === 0 && this.replay.size > 0)
      loss = this.trainStep();
    if (step % c.targetUpdateEvery === 0) this.syncTarget();
    return loss;
  }

  /** One training step now: sample a batch, compute its targets, one optimiser step. Returns the loss. */
  trainStep(): number {
    const { batchSize: n, featureCount: f } = this.config;
    const slots = this.replay.sample(n, this.replayRng, this.slots);
    const y = this.computeTargets(slots, this.targets);
    for (let b = 0; b < n; b++) this.batchXs.set(this.replay.x(slots[b]!), b * f);
    const q = this.online.predict(this.batchXs, n, this.batchQ);
    let qSum = 0;
    for (let b = 0; b < n; b++) qSum += q[b]!;
    this.lastQMean = qSum / n;
    this.lastLoss = this.online.trainBatch(this.batchXs, y, n);
    this.trainSteps++;
    return this.lastLoss;
  }

  /**
   * The Double DQN targets of the transitions in replay `slots`, into `out` ([slots.length]).
   * Two forward passes in all: one over every candidate of the batch, one over the chosen ones.
   */
  computeTargets(slots: Int32Array, out: Float32Array = new Float32Array(slots.length)): Float32Array {
    const { gamma, featureCount: f } = this.config;
    const replay = this.replay;
    const batch = slots.length;

    // 1. Stack the candidate next actions of every transition into one matrix. // [total, f]
    let total = 0;
    for (let b = 0; b < batch; b++) total += replay.nextCount(slots[b]!); // 0 when done
    this.candidateXs = grow(this.candidateXs, total * f, (k) => new Float32Array(k));
    this.candidateQ = grow(this.candidateQ, total, (k) => new Float32Array(k));
    let row = 0;
    for (let b = 0; b < batch; b++) {
      this.candidateXs.set(replay.nextXs(slots[b]!), row * f);
      row += replay.nextCount(slots[b]!);
    }

    // 2. Score all candidates with the network that *selects* a*.
    const selector = this.config.isDoubleQ ? this.online : this.target; // ◀ DOUBLE DQN: the online net picks a* (DQN: the target net)
    if (total > 0) selector.predict(this.candidateXs, total, this.candidateQ);

    // 3. a* = argmax over each transition's own candidates (first on ties); gather x_{a*}. // [chosen, f]
    this.chosenXs = grow(this.chosenXs, batch * f, (k) => new Float32Array(k));
    this.chosenQ = grow(this.chosenQ, batch, (k) => new Float32Array(k));
    this.chosenOf = grow(this.chosenOf, batch, (k) => new Int32Array(k));
    let chosen = 0;
    row = 0;
    for (let b = 0; b < batch; b++) {
      const count = replay.nextCount(slots[b]!);
      this.chosenOf[b] = -1;
      if (count === 0) continue;
      let best = row;
      for (let k = row + 1; k < row + count; k++) if (this.candidateQ[k]! > this.candidateQ[best]!) best = k;
      this.chosenXs.set(this.candidateXs.subarray(best * f, best * f + f), chosen * f);
      this.chosenOf[b] = chosen++;
      row += count;
    }

    // 4. The *target* net scores the chosen actions. // [chosen]
    if (chosen > 0) this.target.predict(this.chosenXs, chosen, this.chosenQ);

    // 5. y = r + gamma * Q_target(x_{a*}); y = r when the episode ended or A' is empty.
    for (let b = 0; b < batch; b++) {
      const c = this.chosenOf[b]!;
      const r = replay.reward(slots[b]!);
      out[b] = c < 0 ? r : r + gamma * this.chosenQ[c]!;
    }
    return out;
  }

  /** Copies the online weights into the target network. */
  syncTarget(): void {
    this.target.copyFrom(this.online);
    this.targetUpdates++;
  }

  /** Training metrics under the shared `rl/` names. */
  stats(): DdqnStats {
    return {
      'rl/td_loss': this.lastLoss,
      'rl/q_mean': this.lastQMean,
      'rl/train_steps': this.trainSteps,
      'rl/target_updates': this.targetUpdates,
      'rl/replay_size': this.replay.size,
    };
  }

  /**
   * Both networks with their Adam states, the counters, the replay buffer and the position of
   * the sampling stream: what a resumed crawl goes on from. The networks must be {@link Mlp}s.
   */
  learnedState(): DdqnLearnedState {
    return {
      online: this.online.toJSON() as MlpJson,
      target: this.target.toJSON() as MlpJson,
      trainSteps: this.trainSteps,
      targetUpdates: this.targetUpdates,
      lastStep: this.lastStep,
      replayRng: this.replayRng.getState(),
      replay: this.replay.snapshot(),
    };
  }

  /**
   * Loads a {@link DdqnAgent.learnedState} into this agent (same config).
   * @throws ConfigError if a network or the replay buffer does not fit.
   */
  loadLearnedState(state: DdqnLearnedState): void {
    if (!(this.online instanceof Mlp) || !(this.target instanceof Mlp))
      throw new ConfigError('only an agent of Mlp networks can load a checkpoint');
    this.online.load(state.online);
    this.target.load(state.target);
    this.replay.load(state.replay);
    this.replayRng.setState(state.replayRng);
    this.trainSteps = state.trainSteps;
    this.targetUpdates = state.targetUpdates;
    this.lastStep = state.lastStep;
  }

  /** Config, both networks and the counters. The replay buffer is not saved. */
  toJSON(): DdqnCheckpoint {
    return {
      config: { ...this.config, hiddenSizes: [...this.config.hiddenSizes] },
      online: this.online.toJSON(),
      target: this.target.toJSON(),
      trainSteps: this.trainSteps,
      targetUpdates: this.targetUpdates,
    };
  }

  /**
   * An agent restored from {@link DdqnAgent.toJSON} of a default ({@link Mlp}) agent, with an
   * empty replay buffer; `rng` seeds replay sampling. Throws ConfigError if it does not fit.
   */
  static fromJSON(json: DdqnCheckpoint, rng: Rng): DdqnAgent {
    const online = Mlp.fromJSON(json.online as MlpJson);
    const target = Mlp.fromJSON(json.target as MlpJson);
    let made = 0;
    const agent = new DdqnAgent({
      config: json.config,
      rng,
      createNetwork: () => (made++ === 0 ? online : target),
    });
    // the constructor copied online into target; restore the saved target weights
    target.params.set((json.target as MlpJson).params);
    agent.trainSteps = json.trainSteps;
    agent.targetUpdates = json.targetUpdates;
    return agent;
  }
}
