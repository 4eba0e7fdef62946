/**
 * The forward pass of one dense layer, the inner loop of every Q evaluation. Kept apart from
 * {@link Mlp} because its shape is chosen for speed, not for reading.
 */

/** LeakyReLU(s) with `slope` (1 makes it the identity, for a linear output layer). */
function act(s: number, slope: number): number {
  return s < 0 ? slope * s : s;
}

/**
 * z = act(W a + b) for `n` rows: a [n, inS], z [n, outS], W [outS, inS] row-major at `wOff` of
 * `p`, b [outS] at `bOff`.
 *
 * Blocked 4 rows x 2 outputs: each loaded weight serves four rows and each loaded input two
 * outputs, and the eight sums are independent, which breaks the floating-point add-latency chain
 * of a single dot product (one row at a time measured ~1.3 us per 9-30-15-1 vector on this
 * machine, 4 rows ~0.65 us, 4 x 2 ~0.5 us). Every sum is b + w_0 a_0 + w_1 a_1 + ... in the same
 * order in every path, so Q(x) is bit-identical wherever x sits in a batch.
 */
export function denseForward(
  p: Float64Array,
  wOff: number,
  bOff: number,
  a: Float64Array,
  z: Float64Array,
  n: number,
  inS: number,
  outS: number,
  slope: number,
): void {
  let r = 0;
  for (; r + 3 < n; r += 4) {
    const a0 = r * inS;
    const a1 = a0 + inS;
    const a2 = a1 + inS;
    const a3 = a2 + inS;
    const z0 = r * outS;
    const z1 = z0 + outS;
    const z2 = z1 + outS;
    const z3 = z2 + outS;
    let j = 0;
    for (; j + 1 < outS; j += 2) {
      const b = p[bOff + j]!;
      const c = p[bOff + j + 1]!;
      let s0 = b;
      let s1 = b;
      let s2 = b;
      let s3 = b;
      let t0 = c;
      let t1 = c;
      let t2 = c;
      let t3 = c;
      const wB = wOff + j * inS;
      const vB = wB + inS;
      for (let i = 0; i < inS; i++) {
        const w = p[wB + i]!;
        const v = p[vB + i]!;
        const x0 = a[a0 + i]!;
        const x1 = a[a1 + i]!;
        const x2 = a[a2 + i]!;
        const x3 = a[a3 + i]!;
        s0 += w * x0;
        s1 += w * x1;
        s2 += w * x2;
        s3 += w * x3;
        t0 += v * x0;
        t1 += v * x1;
        t2 += v * x2;
        t3 += v * x3;
      }
      z[z0 + j] = act(s0, slope);
      z[z1 + j] = act(s1, slope);
      z[z2 + j] = act(s2, slope);
      z[z3 + j] = act(s3, slope);
      z[z0 + j + 1] = act(t0, slope);
      z[z1 + j + 1] = act(t1, slope);
      z[z2 + j + 1] = act(t2, slope);
      z[z3 + j + 1] = act(t3, slope);
    }
    if (j < outS) {
      const b = p[bOff + j]!;
      let s0 = b;
      let s1 = b;
      let s2 = b;
      let s3 = b;
      const wB = wOff + j * inS;
      for (let i = 0; i < inS; i++) {
        const w = p[wB + i]!;
        s0 += w * a[a0 + i]!;
        s1 += w * a[a1 + i]!;
        s2 += w * a[a2 + i]!;
        s3 += w * a[a3 + i]!;
      }
      z[z0 + j] = act(s0, slope);
      z[z1 + j] = act(s1, slope);
      z[z2 + j] = act(s2, slope);
      z[z3 + j] = act(s3, slope);
    }
  }
  for (; r < n; r++) {
    const aB = r * inS;
    const zB = r * outS;
    for (let j = 0; j < outS; j++) {
      let s = p[bOff + j]!;
      const wB = wOff + j * inS;
      for (let i = 0; i < inS; i++) s += p[wB + i]! * a[aB + i]!;
      z[zB + j] = act(s, slope);
    }
  }
}
