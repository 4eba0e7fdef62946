/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own
 * report, so that any CI reading the last lines sees the counts in a standard shape.
 */
import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

function count(tasks: Task[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.type === 'test') {
      const state = task.result?.state;
      if (state === 'pass') totals.passed++;
      else if (state === 'fail') totals.failed++;
      else totals.skipped++;
    }
    if (task.tasks) count(task.tasks, totals);
  }
}

export default class PlainSummaryReporter implements Reporter {
  onFinished(files: unknown[] = [], errors: unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files as Task[], totals);
    // A file that failed to load counts as a failure too.
    const broken = (files as { result?: { state?: string }; tasks?: Task[] }[]).filter(
      (f) => f.result?.state === 'fail' && (f.tasks?.length ?? 0) === 0,
    ).length;
    const failed = totals.failed + broken + errors.length;
    process.stdout.write(`\ntests: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped\n`);
  }
}
