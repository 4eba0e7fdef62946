/**
 * Per-host politeness: at most `maxConnectionsPerHost` requests to a host at once, and a pause
 * of at least the host's delay between the END of one request and the START of the next. The
 * delay is max(minDelayMs, the host's robots.txt Crawl-delay capped at maxCrawlDelayMs); a server
 * asking to back off (429/503 with Retry-After) pushes the host's next slot further.
 *
 * Memory stays bounded with millions of hosts: a host's record is dropped once it is idle and its
 * delay has passed, since forgetting it then changes nothing. (Its Crawl-delay is set again from
 * the robots.txt cache before the next request.)
 */
import { type Clock, systemClock, TresError } from '../common/index.js';
import { checkNumber, withDefaults } from './option-checks.js';

/** Options of {@link Politeness}. */
export interface PolitenessOptions {
  /** Least pause between the end of one request and the start of the next to a host, in ms; 0 for none. @default 1000 */
  minDelayMs?: number;
  /** Cap on a robots.txt Crawl-delay, in ms (some sites ask for minutes). @default 30_000 */
  maxCrawlDelayMs?: number;
  /** Requests to one host at the same time. @default 1 */
  maxConnectionsPerHost?: number;
}

/** Defaults of {@link PolitenessOptions}. */
export const DEFAULT_POLITENESS_OPTIONS: Readonly<Required<PolitenessOptions>> = Object.freeze({
  minDelayMs: 1000,
  maxCrawlDelayMs: 30_000,
  maxConnectionsPerHost: 1,
});

interface HostState {
  active: number;
  /** Monotonic time the last request ended. */
  lastEndAtMs: number;
  /** No request starts before this monotonic time (Retry-After). */
  notBeforeMs: number;
  /** Crawl-delay from robots.txt, already capped. */
  crawlDelayMs: number;
  /** Callers of acquireWhenReady waiting for a busy host to free a connection. */
  waiters: Set<() => void> | undefined;
}

/** Fewest records before a sweep for idle hosts is considered. */
const MIN_SWEEP_SIZE = 1024;

/** Per-host scheduler. Host names are used as given (lowercase them before). */
export class Politeness {
  /** The options in effect (defaults filled in). */
  readonly options: Readonly<Required<PolitenessOptions>>;
  private readonly clock: Clock;
  private readonly hosts = new Map<string, HostState>();
  private sweepAtSize = MIN_SWEEP_SIZE;

  /** @throws ConfigError naming the first bad option. */
  constructor(options: PolitenessOptions = {}, deps: { clock?: Clock } = {}) {
    const merged = withDefaults<Required<PolitenessOptions>>(DEFAULT_POLITENESS_OPTIONS, options);
    checkNumber('Politeness', 'minDelayMs', merged.minDelayMs, 0);
    checkNumber('Politeness', 'maxCrawlDelayMs', merged.maxCrawlDelayMs, 0);
    checkNumber('Politeness', 'maxConnectionsPerHost', merged.maxConnectionsPerHost, 1, true);
    this.options = merged;
    this.clock = deps.clock ?? systemClock;
  }

  /** Number of hosts with a record (busy, waiting out a delay, or with a pending Retry-After). */
  get size(): number {
    return this.hosts.size;
  }

  /** Effective delay of a host, in ms: max(minDelayMs, capped Crawl-delay). */
  delayMsOf(host: string): number {
    return Math.max(this.options.minDelayMs, this.hosts.get(host)?.crawlDelayMs ?? 0);
  }

  /** True when a request to `host` may start now. */
  isHostReady(host: string): boolean {
    const state = this.hosts.get(host);
    if (!state) return true;
    return (
      state.active < this.options.maxConnectionsPerHost &&
      this.clock.monotonicMs() >= this.startAtMs(host, state)
    );
  }

  /**
   * Monotonic time (clock.monotonicMs) from which a request to `host` may start: now or earlier
   * when ready; Infinity while every connection to it is busy (it frees when one is released).
   */
  nextReadyAtMs(host: string): number {
    const state = this.hosts.get(host);
    if (!state) return this.clock.monotonicMs();
    if (state.active >= this.options.maxConnectionsPerHost) return Number.POSITIVE_INFINITY;
    return this.startAtMs(host, state);
  }

  /**
   * Takes a connection slot of `host`; pair with {@link release} in a `finally`.
   * @throws TresError `TRES_HOST_NOT_READY` when the host is not ready (a caller bug).
   */
  acquire(host: string): void {
    if (!this.isHostReady(host)) {
      throw new TresError('TRES_HOST_NOT_READY', `Host ${host} is not ready; check isHostReady first`, {
        context: { host },
      });
    }
    this.stateOf(host).active += 1;
  }

  /**
   * Waits until `host` is ready, then takes a slot (no other caller can take it in between).
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  async acquireWhenReady(host: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      if (this.isHostReady(host)) {
        this.acquire(host);
        return;
      }
      const at = this.nextReadyAtMs(host);
      if (at === Number.POSITIVE_INFINITY) await this.releaseOf(host, signal);
      else {
        await this.clock.sleep(Math.max(1, at - this.clock.monotonicMs()), signal).catch((error: unknown) => {
          // node:timers/promises rejects with its own AbortError; callers expect the signal's reason.
          throw signal?.aborted ? signal.reason : error;
        });
      }
    }
  }

  /** Frees a slot taken by {@link acquire}; the host's delay counts from now. */
  release(host: string): void {
    const state = this.hosts.get(host);
    if (!state || state.active === 0) return;
    state.active -= 1;
    state.lastEndAtMs = this.clock.monotonicMs();
    const waiters = state.waiters;
    state.waiters = undefined;
    if (waiters) for (const wake of waiters) wake();
  }

  /** Sets the robots.txt Crawl-delay of `host` in ms (capped at maxCrawlDelayMs); undefined clears it. */
  setCrawlDelay(host: string, crawlDelayMs: number | undefined): void {
    const capped = Math.min(Math.max(0, crawlDelayMs ?? 0), this.options.maxCrawlDelayMs);
    const state = this.hosts.get(host);
    if (state) state.crawlDelayMs = capped;
    else if (capped > 0) this.stateOf(host).crawlDelayMs = capped;
  }

  /** Keeps requests to `host` from starting for `ms` milliseconds (a 429/503 Retry-After). */
  retryAfter(host: string, ms: number): void {
    if (!(ms > 0)) return;
    const state = this.stateOf(host);
    state.notBeforeMs = Math.max(state.notBeforeMs, this.clock.monotonicMs() + ms);
  }

  private startAtMs(host: string, state: HostState): number {
    return Math.max(state.lastEndAtMs + this.delayMsOf(host), state.notBeforeMs);
  }

  private releaseOf(host: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const state = this.stateOf(host);
      const onAbort = () => {
        state.waiters?.delete(wake);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      state.waiters ??= new Set();
      state.waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      if (this.hosts.size >= this.sweepAtSize) this.sweep();
      state = {
        active: 0,
        lastEndAtMs: Number.NEGATIVE_INFINITY,
        notBeforeMs: 0,
        crawlDelayMs: 0,
        waiters: undefined,
      };
      this.hosts.set(host, state);
    }
    return state;
  }

  /** Drops hosts that are idle and past their delay; amortised O(1) per new host. */
  private sweep(): void {
    const now = this.clock.monotonicMs();
    for (const [host, state] of this.hosts) {
      if (state.active === 0 && !state.waiters && now >= this.startAtMs(host, state)) this.hosts.delete(host);
    }
    this.sweepAtSize = Math.max(MIN_SWEEP_SIZE, this.hosts.size * 2);
  }
}
