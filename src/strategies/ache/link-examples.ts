/**
 * The training links of ACHE's online learner (`LinkClassifierBuilder.loadTrainingData`): every
 * followed link whose target has been fetched, labelled by the target's relevance. At a
 * training, ACHE walks them and keeps two reservoir samples: relevant targets, and irrelevant
 * ones, an irrelevant link being considered only while the negative sample is smaller than the
 * positive one ("to avoid a highly unbalanced number of samples of each class"). We walk them in
 * fetch order (ACHE: in its frontier store's key order).
 */
import type { Rng } from '../../common/index.js';

/** A reservoir sample of at most `capacity` items (Vitter's algorithm R). */
class Reservoir<T> {
  readonly items: T[] = [];
  private seen = 0;

  constructor(
    private readonly capacity: number,
    private readonly rng: Rng,
  ) {}

  offer(item: T): void {
    this.seen++;
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      const j = this.rng.int(this.seen);
      if (j < this.capacity) this.items[j] = item;
    }
  }
}

/** What {@link LinkExamples.learnedState} returns. */
export interface LinkExamplesState {
  ids: Int32Array;
  lengths: Int32Array;
  labels: Uint8Array;
}

/** Followed links with the relevance of their fetched targets. */
export class LinkExamples {
  private readonly links: Int32Array[] = [];
  private readonly labels: number[] = [];
  private positives = 0;

  /** Number of labelled links. */
  get size(): number {
    return this.links.length;
  }

  /** Number of links whose target was relevant. */
  get positiveCount(): number {
    return this.positives;
  }

  /** Records a followed link (its field-word ids) and whether its target was relevant. */
  add(ids: Int32Array, isRelevant: boolean): void {
    this.links.push(ids);
    this.labels.push(isRelevant ? 1 : 0);
    if (isRelevant) this.positives++;
  }

  /** Every labelled link, for checkpoints: ids concatenated, their counts, and the labels. */
  learnedState(): LinkExamplesState {
    const lengths = Int32Array.from(this.links, (l) => l.length);
    const ids = new Int32Array(lengths.reduce((n, k) => n + k, 0));
    let at = 0;
    for (const l of this.links) {
      ids.set(l, at);
      at += l.length;
    }
    return { ids, lengths, labels: Uint8Array.from(this.labels) };
  }

  /** Loads a {@link LinkExamples.learnedState} into this (empty) set. */
  loadLearnedState(state: LinkExamplesState): void {
    let at = 0;
    state.lengths.forEach((n, i) => {
      this.add(state.ids.slice(at, at + n), state.labels[i] === 1);
      at += n;
    });
  }

  /** ACHE's balanced training sample (see the file comment); labels 1 first, then 0. */
  sample(maxPerClass: number, rng: Rng): { links: Int32Array[]; labels: number[] } {
    const pos = new Reservoir<Int32Array>(maxPerClass, rng);
    const neg = new Reservoir<Int32Array>(maxPerClass, rng);
    this.links.forEach((ids, i) => {
      if (this.labels[i] === 1) pos.offer(ids);
      else if (neg.items.length < pos.items.length) neg.offer(ids);
    });
    return {
      links: [...pos.items, ...neg.items],
      labels: [...pos.items.map(() => 1), ...neg.items.map(() => 0)],
    };
  }
}
