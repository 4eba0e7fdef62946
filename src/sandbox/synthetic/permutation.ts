/**
 * A keyed bijection of [0, n): a 4-round Feistel network on the smallest even-bit domain that
 * holds n, with cycle-walking to stay below n (Black and Rogaway, "Ciphers with arbitrary finite
 * domains", 2002). Used so that synthetic page numbers look random while staying invertible:
 * the URL `/p/<forward(i)>.html` maps back to page i without any table.
 */

/** murmur3's 32-bit finaliser: a fast, well-mixing integer hash. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const ROUNDS = 4;

/** A bijection of [0, n) keyed by a 32-bit integer. */
export class IndexPermutation {
  private readonly halfBits: number;
  private readonly mask: number;
  private readonly keys: Uint32Array;

  /** @throws RangeError if n is not an integer in [0, 2^30]. */
  constructor(
    readonly n: number,
    key: number,
  ) {
    if (!Number.isInteger(n) || n < 0 || n > 2 ** 30)
      throw new RangeError(`permutation size must be 0..2^30, got ${n}`);
    let bits = 2;
    while (2 ** bits < n) bits += 2;
    this.halfBits = bits / 2;
    this.mask = (1 << this.halfBits) - 1;
    this.keys = new Uint32Array(ROUNDS);
    for (let r = 0; r < ROUNDS; r++) this.keys[r] = mix32((key ^ Math.imul(r + 1, 0x9e3779b9)) >>> 0);
  }

  private round(x: number, r: number): number {
    return mix32(x ^ (this.keys[r] as number)) & this.mask;
  }

  private encrypt(x: number): number {
    let left = x >>> this.halfBits;
    let right = x & this.mask;
    for (let r = 0; r < ROUNDS; r++) {
      const next = left ^ this.round(right, r);
      left = right;
      right = next;
    }
    return left * (this.mask + 1) + right;
  }

  private decrypt(y: number): number {
    let left = Math.floor(y / (this.mask + 1));
    let right = y & this.mask;
    for (let r = ROUNDS - 1; r >= 0; r--) {
      const prev = right ^ this.round(left, r);
      right = left;
      left = prev;
    }
    return left * (this.mask + 1) + right;
  }

  /** Image of i (0 <= i < n). */
  forward(i: number): number {
    let y = this.encrypt(i);
    while (y >= this.n) y = this.encrypt(y); // cycle-walking: at most a few steps (domain < 4n)
    return y;
  }

  /** Pre-image of j (0 <= j < n): inverse(forward(i)) === i. */
  inverse(j: number): number {
    let x = this.decrypt(j);
    while (x >= this.n) x = this.decrypt(x);
    return x;
  }
}
