/**
 * The one seam between the DDQN agent and its function approximator. The agent only scores
 * batches of state-action vectors, takes regression steps towards targets, and copies one network
 * into another; {@link Mlp} is the implementation, and another (tfjs, WASM, a linear model) can
 * replace it by implementing this interface and passing a {@link QNetworkFactory}.
 */
import type { Rng } from '../common/index.js';

/** A scalar-output regressor Q(x) over state-action vectors x of length `inputSize`. */
export interface QNetwork {
  /** Length of one state-action vector (features). */
  readonly inputSize: number;
  /**
   * Q(x) of `n` row-major vectors. `xs`: [n, inputSize]. Writes into `out` (length >= n) when
   * given, else into a new array; returns the array written (its first n entries).
   */
  predict(xs: Float32Array, n: number, out?: Float32Array): Float32Array;
  /**
   * One optimiser step on the mean squared error between Q(xs) and `targets`.
   * `xs`: [n, inputSize], `targets`: [n]. Returns the loss before the step.
   */
  trainBatch(xs: Float32Array, targets: Float32Array, n: number): number;
  /** Makes this network's weights equal to `other`'s. Throws if the shapes differ. */
  copyFrom(other: QNetwork): void;
  /** A JSON-serialisable snapshot (weights and optimiser state) for checkpoints. */
  toJSON(): unknown;
}

/** Builds a fresh network for `inputSize` features, initialised from `rng`. */
export type QNetworkFactory = (inputSize: number, rng: Rng) => QNetwork;
