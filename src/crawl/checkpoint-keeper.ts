/**
 * What the strategy has learned, kept in the crawl store: saved every `checkpointEveryPages`
 * pages and as the crawl ends, restored when a crawl resumes, so that a resume replays only the
 * pages after the checkpoint instead of learning everything again.
 */
import { type Clock, ConfigError } from '../common/index.js';
import type { CrawlStore } from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { CheckpointEvent } from './events.js';

/** What {@link CheckpointKeeper} needs of the crawl. */
export interface CheckpointKeeperOptions {
  store: CrawlStore;
  strategy: Strategy;
  clock: Clock;
  /** Pages between two checkpoints; false: none saved or restored. */
  everyPages: number | false;
  /** The crawl's folder, named in errors. */
  outDir: string;
  onEvent: (event: CheckpointEvent) => void;
}

/** Saves and restores one crawl's strategy checkpoints. */
export class CheckpointKeeper {
  /** Id of the last page the latest checkpoint (saved or restored) reflects. */
  private checkpointedPage = 0;

  constructor(private readonly o: CheckpointKeeperOptions) {}

  /**
   * Restores the stored checkpoint into the strategy when it was made by the same strategy with
   * the same config; returns the id of the last page it reflects (0: none restored).
   * @throws ConfigError if a matching checkpoint does not fit the strategy.
   */
  restore(): number {
    const { strategy, store, clock } = this.o;
    if (!strategy.restore || this.o.everyPages === false) return 0;
    const startedMs = clock.monotonicMs();
    const saved = store.loadCheckpoint();
    if (saved === undefined) return 0;
    const event = { strategy: saved.strategy, afterPage: saved.afterPage, bytes: saved.bytes };
    const config = JSON.stringify(strategy.config ?? null);
    if (saved.strategy !== strategy.name || JSON.stringify(saved.config) !== config) {
      const reason =
        saved.strategy !== strategy.name
          ? `made by strategy ${saved.strategy}, this crawl runs ${strategy.name}`
          : `made with another ${strategy.name} config`;
      this.o.onEvent({ kind: 'skipped', ...event, elapsedMs: 0, reason });
      return 0;
    }
    try {
      strategy.restore(saved.data);
    } catch (error) {
      throw new ConfigError(
        `the checkpoint of ${strategy.name} in ${this.o.outDir}/crawl.sqlite does not fit this tres: ${error instanceof Error ? error.message : String(error)}; resume with --checkpoint-every none to learn again from the start`,
        { cause: error, context: { file: this.o.outDir } },
      );
    }
    const elapsedMs = clock.monotonicMs() - startedMs;
    this.o.onEvent({ kind: 'restored', ...event, elapsedMs });
    this.checkpointedPage = saved.afterPage;
    return saved.afterPage;
  }

  /** The strategy has replayed (observed) every recorded page: a checkpoint is due only after new ones. */
  replayedThrough(pageId: number): void {
    this.checkpointedPage = pageId;
  }

  /** Saves a checkpoint when `everyPages` pages have been recorded since the last one. */
  saveIfDue(): void {
    const every = this.o.everyPages;
    if (every !== false && this.o.store.lastPageId - this.checkpointedPage >= every) this.save();
  }

  /**
   * Stores what the strategy has learned, reflecting every page recorded so far (each recorded
   * page is observed in the same turn as it is recorded), if any page came since the last one.
   */
  save(): void {
    const { strategy, store, clock } = this.o;
    if (!strategy.checkpoint || this.o.everyPages === false) return;
    const afterPage = store.lastPageId;
    if (afterPage <= this.checkpointedPage) return;
    const startedMs = clock.monotonicMs();
    const bytes = store.saveCheckpoint({
      strategy: strategy.name,
      config: strategy.config ?? null,
      afterPage,
      data: strategy.checkpoint(),
    });
    this.checkpointedPage = afterPage;
    const elapsedMs = clock.monotonicMs() - startedMs;
    this.o.onEvent({ kind: 'saved', strategy: strategy.name, afterPage, bytes, elapsedMs });
  }
}
