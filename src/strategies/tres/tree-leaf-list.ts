/**
 * The Tree-Frontier's list of leaves that hold frontier samples, kept sorted by leaf id so that
 * representatives come out in an order that depends only on the tree, not on the history of
 * removals. Kept incrementally: a leaf enters when its first sample arrives and leaves when its
 * last one goes; each change is a binary search plus an O(L) array shift (a memmove of a few
 * thousand pointers), and only happens when a leaf turns empty or non-empty.
 */

/** Anything with a numeric id. */
export interface HasId {
  readonly id: number;
}

/** An id-sorted list of distinct items. */
export class SortedLeafList<T extends HasId> {
  /** The items, ascending id. Read-only for callers. */
  readonly items: T[] = [];

  get length(): number {
    return this.items.length;
  }

  /** Inserts an item that is not in the list. */
  insert(item: T): void {
    this.items.splice(this.lowerBound(item.id), 0, item);
  }

  /** Removes an item that is in the list. */
  remove(item: T): void {
    const i = this.lowerBound(item.id);
    if (this.items[i] === item) this.items.splice(i, 1);
  }

  /** First position whose id is >= `id`. */
  private lowerBound(id: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.items[mid] as T).id < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
