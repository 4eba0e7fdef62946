/**
 * Platt scaling: P(relevant | f) = 1 / (1 + exp(A f + B)) fitted to decision values f, with
 * Platt's smoothed targets and the Newton method with backtracking of Lin, Lin and Weng (2007),
 * "A note on Platt's probabilistic outputs for support vector machines".
 */

/** Platt parameters. */
export interface PlattScaling {
  a: number;
  b: number;
}

/** Fits A and B to decision values `f` and 0/1 `labels`. */
export function fitPlatt(f: ArrayLike<number>, labels: ArrayLike<number>): PlattScaling {
  const n = f.length;
  let prior1 = 0;
  for (let i = 0; i < n; i++) if (labels[i] === 1) prior1++;
  const prior0 = n - prior1;
  const hi = (prior1 + 1) / (prior1 + 2);
  const lo = 1 / (prior0 + 2);
  const t = Float64Array.from({ length: n }, (_, i) => (labels[i] === 1 ? hi : lo));
  let a = 0;
  let b = Math.log((prior0 + 1) / (prior1 + 1));
  const sigma = 1e-12;
  const objective = (aa: number, bb: number) => {
    let fval = 0;
    for (let i = 0; i < n; i++) {
      const fApB = (f[i] as number) * aa + bb;
      const ti = t[i] as number;
      fval +=
        fApB >= 0
          ? ti * fApB + Math.log(1 + Math.exp(-fApB))
          : (ti - 1) * fApB + Math.log(1 + Math.exp(fApB));
    }
    return fval;
  };
  let fval = objective(a, b);
  for (let iter = 0; iter < 100; iter++) {
    let h11 = sigma;
    let h22 = sigma;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < n; i++) {
      const fi = f[i] as number;
      const fApB = fi * a + b;
      const p = fApB >= 0 ? Math.exp(-fApB) / (1 + Math.exp(-fApB)) : 1 / (1 + Math.exp(fApB));
      const q = 1 - p;
      const d2 = p * q;
      h11 += fi * fi * d2;
      h22 += d2;
      h21 += fi * d2;
      const d1 = (t[i] as number) - p;
      g1 += fi * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-5 && Math.abs(g2) < 1e-5) break;
    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    while (step >= 1e-10) {
      const na = a + step * dA;
      const nb = b + step * dB;
      const nf = objective(na, nb);
      if (nf < fval + 1e-4 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;
  }
  return { a, b };
}

/** P(relevant) of decision value `f`. */
export function plattProbability(p: PlattScaling, f: number): number {
  const z = p.a * f + p.b;
  return z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
}
