/**
 * Test support: an object-per-sample priority frontier, the reference IndexedPriorityFrontier is
 * tested against (not in the product: strategies use the indexed frontiers). Kept as one queue per host plus a heap
 * of hosts keyed by their best item.
 * This is what lets a polite crawler ask "the best URL among hosts that may be fetched now"
 * without scanning the frontier: hosts that are busy or waiting for their delay are set aside
 * for this call only, and hosts whose domain is closed for good (at its page limit b) are
 * purged with all their URLs.
 *
 * Plain strategies differ only in the key: discovery order (BFS), a random number (Random), or
 * minus a score (best-first). Smaller keys come out first; ties are broken by URL.
 */
import type { Action } from '../types/index.js';
import { BinaryHeap } from './binary-heap.js';
import type { DrawContext } from './frontier.js';

/** What every frontier holds: a URL reachable by one link. Several samples may share a URL. */
export interface FrontierSample {
  /** Normalised URL. */
  url: string;
  host: string;
  /** Registrable domain (or host, in host mode): the unit of the page limit b. */
  domain: string;
}

/** The contract of an object-per-sample frontier (test support only). */
export interface Frontier<S extends FrontierSample> {
  /** Samples waiting (a frontier that drops stale samples lazily may count some of them). */
  readonly size: number;
  /** Adds a sample. */
  add(sample: S): void;
  /**
   * Removes every sample of `url` (it was fetched, through this sample or another); returns how
   * many were removed. A lazy frontier may drop them at `draw` instead and return 0.
   */
  removeUrl(url: string): number;
  /** Removes every sample of `domain` (closed for good at its page limit b); returns how many. */
  purgeDomain(domain: string): number;
  /**
   * The candidates of this step: samples whose host may be fetched now (`isHostReady`) and whose
   * domain is open, after dropping stale ones (URL fetched, domain closed). They stay in the
   * frontier until {@link Frontier.take}. Empty when nothing can be fetched now.
   */
  draw(ctx: DrawContext): S[];
  /** Removes the drawn sample the strategy chose. Returns false if it was not in the frontier. */
  take(sample: S): boolean;
  /** Numbers under stable metric names (`frontier/size`, ...). */
  stats(): Record<string, number>;
}

/** True if a sample may be fetched now; false if it must wait (host busy, domain full for now). */
export function isReady(ctx: DrawContext, sample: FrontierSample): boolean {
  return ctx.isHostReady(sample.host) && ctx.isDomainOpen(sample.domain);
}

/** A sample of a priority frontier: smaller keys come out first. */
export interface PrioritySample extends FrontierSample {
  /** Ordering key: smaller comes out first; must not change while the sample waits. */
  key: number;
}

/** One URL waiting in a plain strategy's frontier: the action it becomes, with its key. */
export interface FrontierItem extends Action {
  key: number;
}

interface HostQueue<S extends PrioritySample> {
  host: string;
  domain: string;
  heap: BinaryHeap<S>;
  /** The queue's live entry in the host heap; older entries are stale (lazy invalidation). */
  entry: HostEntry<S> | undefined;
}

/** A snapshot of a host queue's head, as pushed on the host heap. Never mutated. */
interface HostEntry<S extends PrioritySample> {
  queue: HostQueue<S>;
  headKey: number;
  headUrl: string;
}

const itemLess = (a: PrioritySample, b: PrioritySample): boolean =>
  a.key < b.key || (a.key === b.key && a.url < b.url);
const hostLess = <S extends PrioritySample>(a: HostEntry<S>, b: HostEntry<S>): boolean =>
  a.headKey < b.headKey || (a.headKey === b.headKey && a.headUrl < b.headUrl);

/**
 * Per-host priority queues behind one global order. One candidate per draw: the best sample
 * whose host is ready and whose domain is open. Stale samples (URL fetched, domain closed) are
 * dropped lazily when they reach the head, so `removeUrl` is free.
 */
export class PriorityFrontier<S extends PrioritySample = FrontierItem> implements Frontier<S> {
  private readonly hosts = new Map<string, HostQueue<S>>();
  private readonly ready = new BinaryHeap<HostEntry<S>>(hostLess);
  private count = 0;
  /** The last drawn sample, out of its queue until taken or drawn past (then it goes back). */
  private held: S | undefined;

  /** Number of items waiting (stale duplicates included until they are popped). */
  get size(): number {
    return this.count;
  }

  /** Number of hosts with waiting items. */
  get hostCount(): number {
    return this.hosts.size;
  }

  add(item: S): void {
    let queue = this.hosts.get(item.host);
    if (!queue) {
      queue = { host: item.host, domain: item.domain, heap: new BinaryHeap<S>(itemLess), entry: undefined };
      this.hosts.set(item.host, queue);
    }
    queue.heap.push(item);
    this.count++;
    // Re-key the host only if the new item became its head.
    if (queue.entry === undefined || queue.heap.peek() === item) this.enqueueHost(queue);
  }

  /** The best ready sample, if any (see {@link Frontier.draw}). */
  draw(ctx: DrawContext): S[] {
    this.release();
    const found = this.pop(ctx);
    if (found === undefined) return [];
    this.held = found;
    this.count++;
    return [found];
  }

  take(sample: S): boolean {
    if (sample !== this.held) return false;
    this.held = undefined;
    this.count--;
    return true;
  }

  /** Lazy: samples of a fetched URL are dropped when drawn (`ctx.isFetched`). */
  removeUrl(_url: string): number {
    return 0;
  }

  /** Lazy: a closed domain's hosts are dropped when they reach the head (`ctx.isDomainClosed`). */
  purgeDomain(_domain: string): number {
    return 0;
  }

  stats(): Record<string, number> {
    return { 'frontier/size': this.count, 'frontier/hosts': this.hosts.size };
  }

  /**
   * Draws and takes in one call: removes and returns the best ready sample, or undefined if none
   * can be taken now.
   */
  takeBest(ctx: DrawContext): S | undefined {
    const [best] = this.draw(ctx);
    if (best !== undefined) this.take(best);
    return best;
  }

  /** Puts a drawn sample that was not taken back in its queue. */
  private release(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    this.count--;
    this.add(held);
  }

  /**
   * Removes and returns the best item whose host is ready and whose domain is open, skipping
   * (and dropping) items already fetched. Returns undefined if none can be taken now.
   */
  private pop(ctx: DrawContext): S | undefined {
    const setAside: HostQueue<S>[] = [];
    let found: S | undefined;
    while (found === undefined) {
      const entry = this.ready.pop();
      if (!entry) break;
      const queue = entry.queue;
      if (queue.entry !== entry) continue; // stale: the queue was re-keyed or dropped since
      queue.entry = undefined;
      if (ctx.isDomainClosed(queue.domain)) {
        this.dropHost(queue);
        continue;
      }
      if (!ctx.isHostReady(queue.host) || !ctx.isDomainOpen(queue.domain)) {
        setAside.push(queue);
        continue;
      }
      let isDropped = false;
      for (
        let head = queue.heap.peek();
        head !== undefined && ctx.isFetched(head.url);
        head = queue.heap.peek()
      ) {
        queue.heap.pop();
        this.count--;
        isDropped = true;
      }
      // Keyed by a fetched sample: compete again under the live head (see the indexed frontier).
      if (!isDropped) {
        found = queue.heap.pop() as S;
        this.count--;
      }
      if (queue.heap.size === 0) this.hosts.delete(queue.host);
      else this.enqueueHost(queue);
    }
    for (const queue of setAside) this.enqueueHost(queue);
    return found;
  }

  /** Iterates over every waiting item (order unspecified). */
  *items(): IterableIterator<S> {
    if (this.held !== undefined) yield this.held;
    for (const queue of this.hosts.values()) yield* queue.heap.values();
  }

  private enqueueHost(queue: HostQueue<S>): void {
    const head = queue.heap.peek();
    if (!head) return;
    queue.entry = { queue, headKey: head.key, headUrl: head.url };
    this.ready.push(queue.entry);
  }

  private dropHost(queue: HostQueue<S>): void {
    this.count -= queue.heap.size;
    queue.heap.clear();
    queue.entry = undefined;
    this.hosts.delete(queue.host);
  }
}
