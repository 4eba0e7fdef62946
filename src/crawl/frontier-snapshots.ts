/**
 * The crawl's frontier snapshots: everything the strategy holds (`Strategy.frontierSnapshot`)
 * and the pages the frontier bound holds back (crawl/frontier-spill.ts), in one file beside the
 * store (store/frontier-snapshot.ts), so that a resume restores them and replays only the pages
 * recorded after the snapshot instead of every page of the crawl.
 *
 * A snapshot is large (the whole frontier: about 200 bytes a queued URL), so it is not taken
 * with every learned checkpoint: only once the pages since the last one reach both
 * `frontierSnapshotPages` and a tenth of the crawl so far (what a kill would make the resume
 * replay stays under a tenth of the crawl, while the bytes written over a crawl stay about ten
 * times the last snapshot's), and when the crawl stops or ends.
 */
import { type Clock, ConfigError, TresError } from '../common/index.js';
import {
  type CrawlStore,
  FRONTIER_SNAPSHOT_FILE,
  readFrontierSnapshot,
  removeFrontierSnapshot,
  writeFrontierSnapshot,
} from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action } from '../types/index.js';
import type { CheckpointEvent } from './events.js';
import type { FrontierSpill, FrontierSpillSnapshot } from './frontier-spill.js';

/** Share of the crawl's pages so far that the pages since the last snapshot must reach. */
const SNAPSHOT_SHARE = 0.1;

/** What the snapshot file holds besides its header (see store/frontier-snapshot.ts). */
interface SnapshotData {
  strategy: unknown;
  spill: FrontierSpillSnapshot;
}

/** What {@link FrontierSnapshots} needs of the crawl. */
export interface FrontierSnapshotsOptions {
  store: CrawlStore;
  strategy: Strategy;
  spill: FrontierSpill;
  clock: Clock;
  /** The crawl's folder, where the snapshot file is kept. */
  outDir: string;
  /** Pages between two snapshots at least (see the file comment); false: none saved or used. */
  minPages: number | false;
  onEvent: (event: CheckpointEvent) => void;
}

/** Saves and restores one crawl's frontier snapshots. */
export class FrontierSnapshots {
  /** Id of the last page the latest snapshot (saved or restored) reflects. */
  private snapshotPage = 0;
  /** Actions the strategy gave and the store has not recorded yet, by URL. */
  private readonly taken = new Map<string, Action>();
  private readonly isOn: boolean;

  constructor(private readonly o: FrontierSnapshotsOptions) {
    this.isOn =
      o.minPages !== false &&
      o.strategy.frontierSnapshot !== undefined &&
      o.strategy.restoreFrontier !== undefined;
  }

  /** A new crawl in the folder: a snapshot left there (of a removed crawl) must not be used. */
  forget(): void {
    removeFrontierSnapshot(this.o.outDir);
  }

  /** The strategy gave `action` to fetch. */
  took(action: Action): void {
    if (this.isOn) this.taken.set(action.url, action);
  }

  /** The attempt at `url` (an action the strategy gave) is recorded. */
  recorded(url: string): void {
    this.taken.delete(url);
  }

  /**
   * Restores the stored snapshot into the strategy (fresh, before `seed`) and the spill when it
   * was made by the same strategy with the same config, of this store; returns the id of the last
   * page it reflects, or undefined when none was restored (a `skipped` event says why when there
   * was one).
   * @throws ConfigError if a matching snapshot does not fit the strategy.
   */
  restore(): number | undefined {
    const { strategy, store, clock } = this.o;
    if (!this.isOn) return undefined;
    const startedMs = clock.monotonicMs();
    const skip = (afterPage: number, bytes: number, reason: string): undefined => {
      this.o.onEvent({
        kind: 'skipped',
        part: 'frontier',
        strategy: strategy.name,
        afterPage,
        bytes,
        elapsedMs: 0,
        reason,
      });
      return undefined;
    };
    let read: ReturnType<typeof readFrontierSnapshot>;
    try {
      read = readFrontierSnapshot(this.o.outDir);
    } catch (error) {
      if (error instanceof TresError) return skip(0, 0, `${FRONTIER_SNAPSHOT_FILE} cannot be read`);
      throw error;
    }
    if (read === undefined) return undefined;
    const { snapshot, bytes } = read;
    const { afterPage } = snapshot;
    if (snapshot.strategy !== strategy.name)
      return skip(
        afterPage,
        bytes,
        `made by strategy ${snapshot.strategy}, this crawl runs ${strategy.name}`,
      );
    if (JSON.stringify(snapshot.config) !== JSON.stringify(strategy.config ?? null))
      return skip(afterPage, bytes, `made with another ${strategy.name} config`);
    const pageUrl = afterPage > 0 && afterPage <= store.lastPageId ? store.urlOf(afterPage) : undefined;
    if (pageUrl === undefined || pageUrl !== snapshot.afterPageUrl)
      return skip(afterPage, bytes, `it reflects page ${afterPage}, which this store does not hold`);
    const data = snapshot.data as SnapshotData;
    try {
      strategy.restoreFrontier?.(data.strategy);
    } catch (error) {
      throw new ConfigError(
        `the frontier snapshot of ${strategy.name} in ${this.o.outDir}/${FRONTIER_SNAPSHOT_FILE} does not fit this tres: ${error instanceof Error ? error.message : String(error)}; remove that file to resume by replaying every stored page`,
        { cause: error, context: { file: this.o.outDir } },
      );
    }
    this.o.spill.restore(data.spill);
    this.snapshotPage = afterPage;
    this.o.onEvent({
      kind: 'restored',
      part: 'frontier',
      strategy: strategy.name,
      afterPage,
      bytes,
      elapsedMs: clock.monotonicMs() - startedMs,
    });
    return afterPage;
  }

  /** Saves a snapshot when enough pages have been recorded since the last one (see the file comment). */
  saveIfDue(): void {
    if (!this.isOn) return;
    const last = this.o.store.lastPageId;
    const since = last - this.snapshotPage;
    if (since >= (this.o.minPages as number) && since >= last * SNAPSHOT_SHARE) this.save();
  }

  /**
   * Stores everything the strategy holds and the spill's held pages, reflecting every page
   * recorded so far (each recorded page is observed in the same turn as it is recorded), if any
   * page came since the last snapshot.
   */
  save(): void {
    const { strategy, store, clock } = this.o;
    if (!this.isOn || strategy.frontierSnapshot === undefined) return;
    const afterPage = store.lastPageId;
    if (afterPage <= this.snapshotPage) return;
    const afterPageUrl = store.urlOf(afterPage);
    if (afterPageUrl === undefined) return;
    const startedMs = clock.monotonicMs();
    const data: SnapshotData = {
      strategy: strategy.frontierSnapshot([...this.taken.values()]),
      spill: this.o.spill.snapshot(),
    };
    const bytes = writeFrontierSnapshot(this.o.outDir, {
      strategy: strategy.name,
      config: strategy.config ?? null,
      afterPage,
      afterPageUrl,
      data,
    });
    this.snapshotPage = afterPage;
    this.o.onEvent({
      kind: 'saved',
      part: 'frontier',
      strategy: strategy.name,
      afterPage,
      bytes,
      elapsedMs: clock.monotonicMs() - startedMs,
    });
  }
}
