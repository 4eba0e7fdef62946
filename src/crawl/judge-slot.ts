/**
 * The relevance judge of a running crawl and its version: relevance feedback swaps a newer one
 * in, each page is recorded with the version that judged it, and a resume goes on with the last
 * version swapped in (kept in the store's meta `judgeVersion`).
 */
import { ConfigError } from '../common/index.js';
import type { CrawlStore } from '../store/index.js';
import type { FetchRunner } from './crawl-options.js';
import type { PageJudge } from './judge.js';

/** Store meta key of the version of the judge swapped in last. */
const JUDGE_VERSION_META = 'judgeVersion';

/** One crawl's current judge and its version (0: the judge the crawl started with). */
export class JudgeSlot {
  private currentJudge: PageJudge;
  private currentVersion = 0;

  constructor(judge: PageJudge) {
    this.currentJudge = judge;
  }

  get judge(): PageJudge {
    return this.currentJudge;
  }

  get version(): number {
    return this.currentVersion;
  }

  /** Takes the version swapped in last from `store` (a resume keeps it). */
  readVersion(store: CrawlStore): void {
    this.currentVersion = Number(store.getMeta(JUDGE_VERSION_META) ?? 0);
  }

  /**
   * Swaps in `judge` as `version`, kept in `store` for a resume; when `runner` judges pages,
   * hands it `modelDir`. The returned promise settles once the runner has it.
   * @throws ConfigError if `version` does not grow, or without `modelDir` when the runner judges.
   */
  swap(
    judge: PageJudge,
    version: number,
    store: CrawlStore,
    runner: FetchRunner | undefined,
    modelDir: string | undefined,
  ): Promise<void> {
    if (!Number.isInteger(version) || version <= this.currentVersion) {
      throw new ConfigError(`judge version must grow: ${version} after ${this.currentVersion}`, {
        context: { field: 'version' },
      });
    }
    const publish = runner?.publishJudge;
    if (publish !== undefined && modelDir === undefined) {
      throw new ConfigError("the fetch runner's workers judge pages: setJudge needs the model folder", {
        context: { field: 'modelDir' },
      });
    }
    this.currentJudge = judge;
    this.currentVersion = version;
    store.setMeta(JUDGE_VERSION_META, version);
    return publish === undefined ? Promise.resolve() : publish.call(runner, modelDir as string, version);
  }
}
