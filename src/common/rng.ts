/**
 * The one source of randomness in tres. Every random choice takes an {@link Rng}; named streams
 * are forked off the run seed (`rng.fork('replay')`) so that adding a component does not change
 * another component's numbers. Nothing else in the code base may call `Math.random`.
 *
 * Generator: sfc32 (Chris Doty-Humphrey's Small Fast Counter, from PractRand), seeded through
 * a 32-bit string hash (cyrb128), which is fast, passes PractRand, and is 32-bit friendly in JS.
 */

/** Seeded pseudo-random generator. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). Throws RangeError if n < 1. */
  int(n: number): number;
  /** One element chosen uniformly; undefined for an empty array. */
  pick<T>(items: readonly T[]): T | undefined;
  /** Shuffles in place (Fisher-Yates) and returns the array. */
  shuffle<T>(items: T[]): T[];
  /** Standard normal deviate (Box-Muller). */
  normal(): number;
  /** An independent stream named `name`, derived from this stream's seed (not its position). */
  fork(name: string): Rng;
  /** The seed string this stream was made from. */
  readonly seed: string;
  /** The stream's position (four 32-bit words and the spare normal deviate), for checkpoints. */
  getState(): number[];
  /** Moves the stream to a position {@link Rng.getState} returned. Throws RangeError on a bad state. */
  setState(state: readonly number[]): void;
}

/** cyrb128: four 32-bit hashes of a string, used as the sfc32 state. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** 32-bit hash of a string (FNV-1a); deterministic across runs and platforms. */
export function hash32(str: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | undefined;

  constructor(readonly seed: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(seed);
    for (let i = 0; i < 12; i++) this.next(); // mix the state before first use
  }

  next(): number {
    const a = this.a;
    const b = this.b;
    const c = this.c;
    const d = this.d;
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    const rot = (c << 21) | (c >>> 11);
    this.c = (rot + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(n: number): number {
    if (!(n >= 1)) throw new RangeError(`Rng.int needs n >= 1, got ${n}`);
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.int(items.length)];
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  fork(name: string): Rng {
    return new Sfc32(`${this.seed}/${name}`);
  }

  getState(): number[] {
    return this.spare === undefined
      ? [this.a, this.b, this.c, this.d]
      : [this.a, this.b, this.c, this.d, this.spare];
  }

  setState(state: readonly number[]): void {
    const words = state.slice(0, 4);
    if ((state.length !== 4 && state.length !== 5) || !words.every((w) => Number.isInteger(w)))
      throw new RangeError(
        `Rng state must be 4 integers and an optional spare deviate, got [${state.join(', ')}]`,
      );
    [this.a, this.b, this.c, this.d] = words as [number, number, number, number];
    this.spare = state[4];
  }
}

/** A seeded generator. The same seed always gives the same sequence. */
export function createRng(seed: string | number): Rng {
  return new Sfc32(String(seed));
}
