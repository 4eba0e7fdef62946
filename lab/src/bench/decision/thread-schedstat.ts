/**
 * The main thread's wait for a CPU, for telling work from waiting in a benchmark on a shared
 * machine: the second field of Linux's `/proc/self/task/<tid>/schedstat` is the nanoseconds the
 * thread (Node runs JavaScript on the thread whose id is the process id) has spent runnable but
 * waiting for a CPU that other tasks held, added exactly at each switch back in.
 *
 * Why not CPU time too: `process.cpuUsage()` (getrusage) brings the kernel's accounting of the
 * running thread up to date, and on this kernel that reschedules a thread whose time slice has
 * run out at that very system call. Read around every decision, it moved the preemptions that
 * fall due during a decision to the reads just outside it: with four busy processes on the same
 * core the decisions' wall p99 read 4 ms with it and 21 ms without. The schedstat file does not
 * do that (its first field, the run time, moves only at scheduler ticks, 4 ms here: too coarse
 * for sub-millisecond decisions, so it is not used either).
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Reads the counter: one pread of a small /proc file (a few microseconds). */
export class ThreadSchedstat {
  private fd: number | undefined;
  private readonly buf = Buffer.alloc(128);

  constructor() {
    try {
      this.fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
      this.waitMs();
    } catch {
      this.close();
    }
  }

  /** True if the wait is measured (Linux schedstat). */
  get hasWait(): boolean {
    return this.fd !== undefined;
  }

  /** Milliseconds the main thread has waited, runnable, for a CPU so far (NaN if not measured). */
  waitMs(): number {
    if (this.fd === undefined) return Number.NaN;
    const n = readSync(this.fd, this.buf, 0, this.buf.length, 0);
    return Number(this.buf.toString('latin1', 0, n).split(' ')[1]) / 1e6;
  }

  /** Releases the file. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
