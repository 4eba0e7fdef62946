/**
 * A binary min-heap over an array, ordered by a comparator. Ties must be broken by the caller's
 * comparator (by URL, say), never by heap order, so that runs repeat exactly.
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  /** @param less true if `a` must come out before `b`. */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i] as T, items[parent] as T)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0] as T;
    const last = items.pop() as T;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Removes every item; O(1). */
  clear(): void {
    this.items.length = 0;
  }

  /**
   * Keeps the items `keep` returns true for and restores the heap order in O(n) (Floyd's
   * heapify). `keep` may change what `less` compares of an item (its key): re-keying every item
   * this way is cheaper than building a new heap (a frontier rescoring).
   */
  filter(keep: (item: T) => boolean): void {
    const items = this.items;
    let n = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as T;
      if (keep(item)) items[n++] = item;
    }
    items.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** Iterates in no particular order. */
  values(): IterableIterator<T> {
    return this.items.values();
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) return;
      const right = left + 1;
      let child = left;
      if (right < n && this.less(items[right] as T, items[left] as T)) child = right;
      if (!this.less(items[child] as T, items[i] as T)) return;
      this.swap(i, child);
      i = child;
    }
  }

  private swap(i: number, j: number): void {
    const items = this.items;
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
}
