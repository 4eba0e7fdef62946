/**
 * A typed array that a serialised value (a frontier snapshot) holds without building it: its
 * element type, its length, and a producer of its contents a chunk at a time, called when the
 * value is written. The writer (store/checkpoint-codec.ts) writes each chunk as it comes, so a
 * column of a hundred megabytes costs a chunk of memory instead of a copy of the column; it is
 * read back as an ordinary typed array.
 */

/** The element types a {@link ChunkedArray} may have (the codec's typed-array names). */
export type ChunkedArrayType = 'i32' | 'f64';

/** See the file comment. */
export class ChunkedArray {
  /**
   * @param type element type
   * @param length elements in all: the chunks must add up to it (the writer checks)
   * @param chunks produces the contents in order, typed arrays of `type`, each a new one (the
   *   writer may keep them until it is done); called once, while the value is written, in the
   *   same turn as the value was made (what it reads must not change before)
   */
  constructor(
    readonly type: ChunkedArrayType,
    readonly length: number,
    readonly chunks: () => Iterable<Int32Array | Float64Array>,
  ) {}

  /** Bytes of the contents. */
  get byteLength(): number {
    return this.length * (this.type === 'i32' ? 4 : 8);
  }
}
