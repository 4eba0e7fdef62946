/**
 * A worker's relevance judge and its version: the crawl's own (keywords, or a model the
 * coordinator put in Redis or named by folder), then each model relevance feedback swaps in,
 * loaded from the files the coordinator puts in Redis, so workers need no folder shared with it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Redis } from 'ioredis';
import { ConfigError } from '../common/index.js';
import type { PageJudge } from '../crawl/index.js';
import { KeywordJudge } from '../crawl/index.js';
import type { ClusterKeys } from './cluster-options.js';
import type { WorkerCrawlConfig } from './messages.js';

/** What {@link WorkerJudge} needs of its worker. */
export interface WorkerJudgeOptions {
  cmd: Redis;
  keys: ClusterKeys;
  /** The worker's id, in the names of its model folders. */
  id: string;
  log: (line: string) => void;
}

/** The judge a worker's pages are judged by, swapped when relevance feedback publishes one. */
export class WorkerJudge {
  private currentJudge!: PageJudge;
  /** Version of the judge: 0 for the crawl's own, then each model relevance feedback swapped in. */
  private currentVersion = 0;
  /** Folders of models this worker wrote (removed by {@link removeFiles}). */
  private readonly dirs: string[] = [];
  /** A swapped-in version that could not be loaded (not tried again). */
  private failedVersion = 0;

  constructor(private readonly o: WorkerJudgeOptions) {}

  get judge(): PageJudge {
    return this.currentJudge;
  }

  get version(): number {
    return this.currentVersion;
  }

  /**
   * Judges with the crawl's own judge (version 0) from now on: a new coordinator run; a
   * swapped-in one is loaded at the next {@link swapIfNewer}.
   * @throws ConfigError when the model cannot be loaded.
   */
  async useCrawlJudge(spec: WorkerCrawlConfig['judge']): Promise<void> {
    if ('modelDir' in spec && spec.isInRedis === true) this.currentJudge = await this.fromRedis(0);
    else if ('modelDir' in spec) {
      const { loadModel } = await import('../relevance/index.js');
      this.currentJudge = await loadModel(spec.modelDir);
    } else this.currentJudge = new KeywordJudge({ keywords: spec.keywords });
    this.currentVersion = 0;
    this.failedVersion = 0;
  }

  /**
   * Loads the judge relevance feedback swapped in, when its version grew. A model that cannot
   * be loaded is said and skipped until a newer version; pages go on being judged by the current
   * one (each outcome carries the version that judged it).
   */
  async swapIfNewer(): Promise<void> {
    const version = Number((await this.o.cmd.get(this.o.keys.judgeVersion)) ?? 0);
    if (!(version > this.currentVersion) || version === this.failedVersion) return;
    try {
      this.currentJudge = await this.fromRedis(version);
      this.currentVersion = version;
      this.o.log(`judging with the model of version ${version} (relevance feedback)`);
    } catch (error) {
      this.failedVersion = version;
      this.o.log(
        `cannot load the judge of version ${version}: ${(error as Error).message}; judging with version ${this.currentVersion} until a newer one`,
      );
    }
  }

  /** Removes the model folders this worker wrote. */
  removeFiles(): void {
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Loads the model whose files the coordinator put in Redis (version 0: the crawl's own; then
   * each one relevance feedback swapped in), from a folder of this worker's.
   * @throws ConfigError when the files are missing or are not a model.
   */
  private async fromRedis(version: number): Promise<PageJudge> {
    const files = await this.o.cmd.hgetallBuffer(this.o.keys.judgeFiles(version));
    if (Object.keys(files).length === 0) {
      throw new ConfigError(
        `the files of judge version ${version} are not in Redis (${this.o.keys.judgeFiles(version)}); restart the coordinator`,
        { context: { field: 'judge' } },
      );
    }
    const dir = mkdtempSync(join(tmpdir(), `tres-judge-${this.o.id}-v${version}-`));
    this.dirs.push(dir);
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, basename(name)), bytes);
    const { loadModel } = await import('../relevance/index.js');
    return loadModel(dir);
  }
}
