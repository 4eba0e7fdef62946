/**
 * A priority frontier kept as one queue per host plus a heap of hosts keyed by their best item.
 * This is what lets a polite crawler ask "the best URL among hosts that may be fetched now"
 * without scanning the frontier: hosts that are busy or waiting for their delay are set aside
 * for this call only, and hosts whose domain is closed for good (at its page limit b) are
 * purged with all their URLs.
 *
 * Plain strategies differ only in the key: discovery order (BFS), a random number (Random), or
 * minus a score (best-first). Smaller keys come out first; ties are broken by URL.
 */
import type { Action, SelectionContext } from '../strategies/strategy.js';
import { BinaryHeap } from './binary-heap.js';

/** One URL waiting in the frontier. */
export interface FrontierItem extends Action {
  /** Ordering key: smaller comes out first. */
  key: number;
}

interface HostQueue {
  host: string;
  domain: string;
  heap: BinaryHeap<FrontierItem>;
  /** The queue's live entry in the host heap; older entries are stale (lazy invalidation). */
  entry: HostEntry | undefined;
}

/** A snapshot of a host queue's head, as pushed on the host heap. Never mutated. */
interface HostEntry {
  queue: HostQueue;
  headKey: number;
  headUrl: string;
}

const itemLess = (a: FrontierItem, b: FrontierItem): boolean =>
  a.key < b.key || (a.key === b.key && a.url < b.url);
const hostLess = (a: HostEntry, b: HostEntry): boolean =>
  a.headKey < b.headKey || (a.headKey === b.headKey && a.headUrl < b.headUrl);

/** Per-host priority queues behind one global order. */
export class HostQueueFrontier {
  private readonly hosts = new Map<string, HostQueue>();
  private readonly ready = new BinaryHeap<HostEntry>(hostLess);
  private count = 0;

  /** Number of items waiting (stale duplicates included until they are popped). */
  get size(): number {
    return this.count;
  }

  /** Number of hosts with waiting items. */
  get hostCount(): number {
    return this.hosts.size;
  }

  add(item: FrontierItem): void {
    let queue = this.hosts.get(item.host);
    if (!queue) {
      queue = { host: item.host, domain: item.domain, heap: new BinaryHeap(itemLess), entry: undefined };
      this.hosts.set(item.host, queue);
    }
    queue.heap.push(item);
    this.count++;
    // Re-key the host only if the new item became its head.
    if (queue.entry === undefined || queue.heap.peek() === item) this.enqueueHost(queue);
  }

  /**
   * Removes and returns the best item whose host is ready and whose domain is open, skipping
   * (and dropping) items already fetched. Returns undefined if none can be taken now.
   */
  take(ctx: SelectionContext): FrontierItem | undefined {
    const setAside: HostQueue[] = [];
    let found: FrontierItem | undefined;
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
      while (queue.heap.size > 0) {
        const item = queue.heap.pop() as FrontierItem;
        this.count--;
        if (!ctx.isFetched(item.url)) {
          found = item;
          break;
        }
      }
      if (queue.heap.size === 0) this.hosts.delete(queue.host);
      else this.enqueueHost(queue);
    }
    for (const queue of setAside) this.enqueueHost(queue);
    return found;
  }

  /** Iterates over every waiting item (order unspecified). */
  *items(): IterableIterator<FrontierItem> {
    for (const queue of this.hosts.values()) yield* queue.heap.values();
  }

  private enqueueHost(queue: HostQueue): void {
    const head = queue.heap.peek();
    if (!head) return;
    queue.entry = { queue, headKey: head.key, headUrl: head.url };
    this.ready.push(queue.entry);
  }

  private dropHost(queue: HostQueue): void {
    this.count -= queue.heap.size;
    queue.heap.clear();
    queue.entry = undefined;
    this.hosts.delete(queue.host);
  }
}
