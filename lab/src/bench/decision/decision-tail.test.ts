import { TRES_PHASES } from 'tres-crawler/internals';
import { describe, expect, it } from 'vitest';
import { decisionTail, gcMsPerDecision, quantile } from './decision-tail.js';
import type { DecisionRecord } from './timed-strategy.js';

function record(
  step: number,
  spans: [number, number, number, number],
  waitMs = 0,
  phases: number[] = [],
): DecisionRecord {
  const phaseMs = new Float64Array(TRES_PHASES.length);
  phaseMs.set(phases);
  const wall = spans[1] - spans[0] + spans[3] - spans[2];
  return {
    step,
    decisionMs: wall,
    waitMs,
    measuredMs: wall,
    spans,
    phaseMs,
    frontierSize: step,
    leaves: 1,
    qEvaluations: 0,
  };
}

describe('decision tail', () => {
  it('counts only the part of a GC pause inside next() or observe(), not the fetch between them', () => {
    const records = [
      record(1, [0, 2, 10, 12]), // next 0-2, fetch 2-10, observe 10-12
      record(2, [20, 21, 30, 31]),
    ];
    const pauses = [
      { startMs: 1, durationMs: 10 }, // 1-11: 1 ms in next, 1 ms in observe
      { startMs: 5, durationMs: 2 }, // inside the fetch
      { startMs: 20.5, durationMs: 0.25 }, // inside next of step 2
    ];
    expect(gcMsPerDecision(records, pauses)).toEqual([2, 0.25]);
  });

  it('puts the decisions at or above the wall p99 apart and subtracts the wait for a CPU', () => {
    // 99 quick decisions of 1 ms and one of 30 ms that waited 28 ms for a CPU.
    const records = Array.from({ length: 100 }, (_, i) =>
      i === 50 ? record(i + 1, [0, 10, 20, 40], 28, [0, 0, 0, 30]) : record(i + 1, [0, 0.5, 1, 1.5], 0, [1]),
    );
    const tail = decisionTail(records, []);
    expect(tail.wall.p99).toBe(30);
    expect(tail.wall.median).toBe(1);
    expect(tail.unwaited.max).toBe(2);
    expect(tail.waitedShare).toBe(0.01);
    expect(tail.tail.count).toBe(1);
    expect(tail.tail.phaseMs.train).toBe(30);
    expect(tail.slowest[0]?.step).toBe(51);
  });

  it('takes quantiles by rank, ignoring NaN (no wait measured)', () => {
    expect(quantile([3, 1, 2, Number.NaN], 0.5)).toBe(2);
    expect(quantile([Number.NaN], 0.99)).toBeNaN();
  });
});
