/**
 * A budget of open sockets over every host. The crawler talks to thousands of hosts; keeping an
 * idle keep-alive connection to each (as a per-origin pool does) holds one file descriptor per
 * host until the process runs out of them. Every connection the fetcher opens passes through
 * here: below the budget it opens at once; at the budget the least recently used idle
 * connection (one whose host has no request in flight) is closed first, and when none is idle
 * the connection waits for one to close. When the system refuses a descriptor (EMFILE, ENFILE)
 * the budget shrinks to what is open, idle connections are closed, and the connection is tried
 * again after a pause: never at once, so a crawl out of descriptors never spins.
 */
import type { Socket } from 'node:net';

/** Options of {@link SocketBudget}. */
export interface SocketBudgetOptions {
  /** Open connections at most, over every host (connections being opened count). */
  maxSockets: number;
  /** Longest wait for a free place in the budget, in ms; then the connect fails (ETIMEDOUT). */
  waitTimeoutMs: number;
  /** Pause before trying again after the system refused a descriptor, in ms. @default 1000 */
  exhaustedRetryMs?: number;
  /** Called once each time the system starts refusing descriptors, with one line saying so. */
  onExhausted?: (message: string) => void;
}

/** Counters of a {@link SocketBudget}. */
export interface SocketBudgetStats {
  /** Connections open or being opened. */
  open: number;
  /** Connections waiting for a place. */
  waiting: number;
  /** The budget now (lower than maxSockets after the system refused descriptors). */
  limit: number;
  /** Idle connections closed to make room. */
  idleClosed: number;
  /** Times the system refused a descriptor. */
  exhausted: number;
}

interface Waiter {
  start: () => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Error codes of a system out of file descriptors. */
const EXHAUSTED_CODES = new Set(['EMFILE', 'ENFILE']);

/** True for an error the system gives when it has no descriptor left. */
export function isDescriptorExhaustion(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && EXHAUSTED_CODES.has(code);
}

export class SocketBudget {
  private readonly options: Required<Omit<SocketBudgetOptions, 'onExhausted'>> &
    Pick<SocketBudgetOptions, 'onExhausted'>;
  /** Open sockets by origin. */
  private readonly socketsOf = new Map<string, Set<Socket>>();
  /** Requests in flight by origin (a connection of an origin with none is idle). */
  private readonly inFlight = new Map<string, number>();
  /** Origins with open sockets and no request in flight, least recently used first. */
  private readonly idle = new Map<string, true>();
  private readonly waiters: Waiter[] = [];
  /** Connections pausing after the system refused a descriptor. */
  private readonly pauses = new Set<{ fail: (error: Error) => void; timer: NodeJS.Timeout }>();
  private openCount = 0;
  private limit: number;
  private idleClosed = 0;
  private exhaustedCount = 0;
  private isExhausted = false;
  private isClosed = false;

  constructor(options: SocketBudgetOptions) {
    this.options = { exhaustedRetryMs: 1000, ...options };
    this.limit = options.maxSockets;
  }

  /** A request to `origin` starts: its connections are busy. */
  requestStarted(origin: string): void {
    this.inFlight.set(origin, (this.inFlight.get(origin) ?? 0) + 1);
    this.idle.delete(origin);
  }

  /** A request to `origin` ended: with none left in flight its connections become idle. */
  requestEnded(origin: string): void {
    const n = (this.inFlight.get(origin) ?? 1) - 1;
    if (n > 0) {
      this.inFlight.set(origin, n);
      return;
    }
    this.inFlight.delete(origin);
    if (this.socketsOf.has(origin)) this.idle.set(origin, true);
    // A connection waits for a place: the least recently used idle one makes it.
    if (this.waiters.length > 0) this.closeOneIdle();
  }

  /**
   * Calls `start` when a connection to `origin` may be opened; `start` must then call
   * {@link opened} or {@link failed} exactly once. `fail` is called instead when no place frees
   * within waitTimeoutMs or the budget is closed.
   */
  acquire(start: () => void, fail: (error: Error) => void): void {
    if (this.isClosed) {
      fail(closedError());
      return;
    }
    if (this.openCount < this.limit || this.closeOneIdle()) {
      // closeOneIdle's socket frees its place when its 'close' event fires; counting the new
      // one now keeps the budget exceeded by at most the sockets being torn down.
      this.openCount++;
      start();
      return;
    }
    const waiter: Waiter = {
      start,
      fail,
      timer: setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        fail(
          Object.assign(
            new Error(
              `no connection free within ${this.options.waitTimeoutMs} ms (socket budget ${this.limit})`,
            ),
            { code: 'ETIMEDOUT' },
          ),
        );
      }, this.options.waitTimeoutMs),
    };
    this.waiters.push(waiter);
  }

  /** The connection started by `acquire` is open. */
  opened(origin: string, socket: Socket): void {
    if (this.isExhausted) this.isExhausted = false;
    let set = this.socketsOf.get(origin);
    if (!set) {
      set = new Set();
      this.socketsOf.set(origin, set);
    }
    set.add(socket);
    if (!this.inFlight.has(origin)) this.idle.set(origin, true);
    socket.once('close', () => {
      const sockets = this.socketsOf.get(origin);
      sockets?.delete(socket);
      if (sockets && sockets.size === 0) {
        this.socketsOf.delete(origin);
        this.idle.delete(origin);
      }
      this.release();
    });
  }

  /**
   * The connection started by `acquire` failed. When the system refused a descriptor, the
   * budget shrinks to what is open and `retry` runs after exhaustedRetryMs (returns true; `fail`
   * is called instead if the budget is closed first); otherwise returns false and the caller
   * reports the error.
   */
  failed(error: unknown, retry: () => void, fail: (error: Error) => void): boolean {
    this.release();
    if (!isDescriptorExhaustion(error) || this.isClosed) return false;
    this.exhaustedCount++;
    // Keep a few places below what is open for the files the crawl itself opens.
    this.limit = Math.max(1, Math.min(this.limit, this.openCount - 8));
    if (!this.isExhausted) {
      this.isExhausted = true;
      this.options.onExhausted?.(
        `out of file descriptors (${(error as { code: string }).code}) with ${this.openCount} connections open: closing idle connections, at most ${this.limit} open from now on, waiting ${this.options.exhaustedRetryMs} ms before the next; raise the limit (ulimit -n) or lower the socket budget`,
      );
    }
    while (this.closeOneIdle()) {
      // close every idle connection: the crawl goes on with the ones in use
    }
    const pause = {
      fail,
      timer: setTimeout(() => {
        this.pauses.delete(pause);
        retry();
      }, this.options.exhaustedRetryMs),
    };
    this.pauses.add(pause);
    return true;
  }

  /** Fails every waiting connection; later acquires fail at once. */
  close(): void {
    this.isClosed = true;
    for (const w of [...this.waiters.splice(0), ...this.pauses]) {
      clearTimeout(w.timer);
      w.fail(closedError());
    }
    this.pauses.clear();
  }

  stats(): SocketBudgetStats {
    return {
      open: this.openCount,
      waiting: this.waiters.length,
      limit: this.limit,
      idleClosed: this.idleClosed,
      exhausted: this.exhaustedCount,
    };
  }

  /** Closes the connections of the least recently used idle origin; false when none is idle. */
  private closeOneIdle(): boolean {
    for (const origin of this.idle.keys()) {
      this.idle.delete(origin);
      const sockets = this.socketsOf.get(origin);
      if (!sockets || sockets.size === 0) continue;
      for (const s of sockets) s.destroy();
      this.idleClosed += sockets.size;
      return true;
    }
    return false;
  }

  /** One place is free again: the oldest waiter takes it. */
  private release(): void {
    this.openCount--;
    while (this.openCount < this.limit && this.waiters.length > 0) {
      const w = this.waiters.shift() as Waiter;
      clearTimeout(w.timer);
      this.openCount++;
      w.start();
    }
  }
}

function closedError(): Error {
  return Object.assign(new Error('the fetcher is closed'), { code: 'UND_ERR_CLOSED' });
}
