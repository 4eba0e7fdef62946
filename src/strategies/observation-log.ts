/**
 * Numbers a strategy computed as it observed pages, in observation order (the store's page
 * order), kept in its checkpoint so that a resume's replay uses them again where it could not
 * compute them the same way: the replayed outcome has no page text, and a score
 * computed now would use what was learned since (a frontier key computed once, when the link
 * was found). RLwCS keeps the score each page's outlinks were queued with, Han's crawler the
 * Q value of each outlink and each page's relevance.
 *
 * 8 bytes a number in the checkpoint.
 */
import { growableArray, grownArray, grownCapacity } from '../frontier/index.js';

export class ObservationLog {
  /** [entries]: the numbers in observation order. */
  private values = growableArray(Float64Array, 1024);
  private length = 0;
  /** Next stored number a replayed page the restored checkpoint reflects reads. */
  private cursor = 0;

  /** Appends a number computed while observing a page live (or replayed past the checkpoint). */
  add(value: number): void {
    if (this.length >= this.values.length)
      this.values = grownArray(this.values, grownCapacity(this.values.length, this.length + 1));
    this.values[this.length++] = value;
  }

  /**
   * The next stored number, for a replayed page the restored checkpoint reflects (it was added
   * when the page was observed); undefined past the stored ones (a checkpoint without them).
   */
  takeStored(): number | undefined {
    return this.cursor < this.length ? (this.values[this.cursor++] as number) : undefined;
  }

  /** The numbers added so far (a copy), for a checkpoint. */
  saved(): Float64Array {
    return this.values.slice(0, this.length);
  }

  /** Loads {@link ObservationLog.saved}; the replay then reads them back from the first. */
  load(values: Float64Array): void {
    this.values = growableArray(Float64Array, Math.max(1024, values.length));
    this.values.set(values);
    this.length = values.length;
    this.cursor = 0;
  }
}
