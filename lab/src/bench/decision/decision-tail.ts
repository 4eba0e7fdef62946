/**
 * The tail of the decision benchmark's decision times, taken apart (the aim: p99 under 20 ms
 * on a shared, loaded machine): for the decisions at or above the wall-time p99, how much was
 * waiting for a CPU that other processes held, how much GC pause, and which phase of the
 * decision the time went to; and the quantiles of the wall time less that wait (the work). GC pauses come from a `gc` PerformanceObserver
 * and are matched to the decisions whose spans they overlap.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { TRES_PHASES } from 'tres-crawler/internals';
import type { DecisionRecord } from './timed-strategy.js';

/** A GC pause of the main thread, on the `performance.now()` clock. */
export interface GcPause {
  startMs: number;
  durationMs: number;
}

/** Collects GC pauses from now until `stop()`. */
export function watchGc(): { pauses: GcPause[]; stop: () => Promise<GcPause[]> } {
  const pauses: GcPause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ startMs: e.startTime, durationMs: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    pauses,
    // Entries are delivered asynchronously: let the last ones arrive before disconnecting.
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      return pauses;
    },
  };
}

/** The value at quantile `q` of `values` (sorted copy; NaN when empty). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** GC pause time inside the decision's two spans, per record (pauses sorted by start). */
export function gcMsPerDecision(records: readonly DecisionRecord[], pauses: readonly GcPause[]): number[] {
  const sorted = [...pauses].sort((a, b) => a.startMs - b.startMs);
  const out: number[] = [];
  let first = 0;
  for (const r of records) {
    const [a, b, c, d] = r.spans;
    while (
      first < sorted.length &&
      (sorted[first] as GcPause).startMs + (sorted[first] as GcPause).durationMs < a
    )
      first++;
    let ms = 0;
    for (let i = first; i < sorted.length && (sorted[i] as GcPause).startMs <= d; i++) {
      const p = sorted[i] as GcPause;
      const end = p.startMs + p.durationMs;
      ms += Math.max(0, Math.min(b, end) - Math.max(a, p.startMs));
      ms += Math.max(0, Math.min(d, end) - Math.max(c, p.startMs));
    }
    out.push(ms);
  }
  return out;
}

/** Mean wall, wait, GC and phase times of a group of decisions. */
export interface TailGroup {
  count: number;
  wallMs: number;
  waitMs: number;
  gcMs: number;
  /** By phase name, in TRES_PHASES order. */
  phaseMs: Record<string, number>;
}

/** The tail, taken apart. */
export interface DecisionTail {
  /** Quantiles of wall and wait per decision, ms. */
  wall: { median: number; p99: number; p999: number; max: number };
  wait: { median: number; p99: number; max: number };
  /**
   * Wall time less the wait for a CPU (the counters' reads included, a few microseconds): what
   * the decision takes when no other process holds the CPU. NaN without schedstat.
   */
  unwaited: { median: number; p99: number; p999: number; max: number };
  /** Decisions during which the main thread waited for a CPU at all (fraction). */
  waitedShare: number;
  /** All decisions, and those at or above the wall p99. */
  all: TailGroup;
  tail: TailGroup;
  /** 99th percentile of each phase's own time, ms. */
  phaseP99Ms: Record<string, number>;
  /** The slowest decisions by wall time, with their split. */
  slowest: (TailGroup & { step: number; frontierSize: number })[];
  /** The slowest decisions by wall time less the wait for a CPU (the work's own spikes). */
  slowestWork: (TailGroup & { step: number; frontierSize: number })[];
}

function group(records: readonly DecisionRecord[], gcMs: ReadonlyMap<DecisionRecord, number>): TailGroup {
  const n = Math.max(1, records.length);
  const sum = (f: (r: DecisionRecord) => number) => records.reduce((s, r) => s + f(r), 0) / n;
  const phaseMs: Record<string, number> = {};
  TRES_PHASES.forEach((p, i) => {
    phaseMs[p] = sum((r) => r.phaseMs[i] as number);
  });
  return {
    count: records.length,
    wallMs: sum((r) => r.decisionMs),
    waitMs: sum((r) => r.waitMs),
    gcMs: sum((r) => gcMs.get(r) ?? 0),
    phaseMs,
  };
}

/** Takes the tail of `records` apart (pass the records after warm-up). */
export function decisionTail(records: readonly DecisionRecord[], pauses: readonly GcPause[]): DecisionTail {
  const gcList = gcMsPerDecision(records, pauses);
  const gcMs = new Map(records.map((r, i) => [r, gcList[i] as number]));
  const wall = records.map((r) => r.decisionMs);
  const wait = records.map((r) => r.waitMs);
  const p99 = quantile(wall, 0.99);
  const slowest = [...records].sort((a, b) => b.decisionMs - a.decisionMs).slice(0, 5);
  const slowestWork = [...records]
    .sort((a, b) => b.measuredMs - b.waitMs - (a.measuredMs - a.waitMs))
    .slice(0, 5);
  const one = (r: DecisionRecord) => ({ ...group([r], gcMs), step: r.step, frontierSize: r.frontierSize });
  const phaseP99Ms: Record<string, number> = {};
  TRES_PHASES.forEach((p, i) => {
    phaseP99Ms[p] = quantile(
      records.map((r) => r.phaseMs[i] as number),
      0.99,
    );
  });
  const stats = (v: number[]) => ({
    median: quantile(v, 0.5),
    p99: quantile(v, 0.99),
    p999: quantile(v, 0.999),
    max: quantile(v, 1),
  });
  return {
    wall: stats(wall),
    wait: { median: quantile(wait, 0.5), p99: quantile(wait, 0.99), max: quantile(wait, 1) },
    unwaited: stats(records.map((r) => r.measuredMs - r.waitMs)),
    waitedShare: records.filter((r) => r.waitMs > 0).length / Math.max(1, records.length),
    all: group(records, gcMs),
    tail: group(
      records.filter((r) => r.decisionMs >= p99),
      gcMs,
    ),
    phaseP99Ms,
    slowest: slowest.map(one),
    slowestWork: Number.isNaN(wait[0] ?? Number.NaN) ? [] : slowestWork.map(one),
  };
}

/** The tail as Markdown (a section of results/decision.md). */
export function tailMarkdown(t: DecisionTail, hasWait: boolean): string {
  const f = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(3));
  const row = (name: string, g: TailGroup) =>
    `| ${name} | ${g.count} | ${f(g.wallMs)} | ${f(g.waitMs)} | ${f(g.gcMs)} | ${TRES_PHASES.map((p) => f(g.phaseMs[p] as number)).join(' | ')} |`;
  const head = `| decisions | n | wall | waiting for a CPU | GC pause | ${TRES_PHASES.join(' | ')} |\n|---|---:|---:|---:|---:|${TRES_PHASES.map(() => '---:').join('|')}|`;
  return `## Where the tail goes (tres, after warm-up)

Per decision: wall time; time the main thread was runnable but waiting for a CPU that other processes held (${hasWait ? 'Linux schedstat' : 'not measured on this system'}); wall time less that wait (the work, GC pauses included); GC pauses overlapping the decision; and the wall time of each phase (draw, choose, store, train in next(); purge, experience, outlinks in observe()). Means in ms.

| | median | p99 | p99.9 | max |
|---|---:|---:|---:|---:|
| wall (ms) | ${f(t.wall.median)} | ${f(t.wall.p99)} | ${f(t.wall.p999)} | ${f(t.wall.max)} |
| waiting for a CPU (ms) | ${f(t.wait.median)} | ${f(t.wait.p99)} | | ${f(t.wait.max)} |
| wall less the wait for a CPU (ms) | ${f(t.unwaited.median)} | ${f(t.unwaited.p99)} | ${f(t.unwaited.p999)} | ${f(t.unwaited.max)} |

Decisions that waited for a CPU at all: ${(t.waitedShare * 100).toFixed(1)}%.

${head}
${row('all', t.all)}
${row('at or above the wall p99', t.tail)}
${t.slowest.map((s) => row(`slowest: step ${s.step} (frontier ${s.frontierSize})`, s)).join('\n')}
${t.slowestWork.map((s) => row(`slowest less the wait: step ${s.step} (frontier ${s.frontierSize})`, s)).join('\n')}

p99 of each phase alone (ms): ${TRES_PHASES.map((p) => `${p} ${f(t.phaseP99Ms[p] as number)}`).join(', ')}.
`;
}
