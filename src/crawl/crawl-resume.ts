/**
 * What a crawl does with its store before the loop starts: records what a fetch runner fetched
 * while no loop listened, and, on a resume, rebuilds the strategy (checkpoint, seeds, replay).
 */
import { ConfigError } from '../common/index.js';
import type { CrawlStore } from '../store/index.js';
import type { Strategy } from '../strategies/index.js';
import type { DiscoveredLink } from '../types/index.js';
import type { CheckpointKeeper } from './checkpoint-keeper.js';
import { type FetchRunner, linkContextWindowOf, type ResolvedCrawlerOptions } from './crawl-options.js';
import type { FrontierSnapshots } from './frontier-snapshots.js';
import type { FrontierSpill } from './frontier-spill.js';
import type { PageRecorder } from './page-recorder.js';

/**
 * Rebuilds the strategy from the store: its frontier snapshot or its learned checkpoint, stored
 * seeds not fetched yet (plus `extraSeeds` not stored yet, which are stored now), then every
 * recorded fetch after the snapshot (all of them without one) replayed in order. The options of
 * this run (`describeConfig`) become the stored ones.
 * @throws ConfigError when the store holds neither seeds nor pages (a crawl killed while being
 *   created) and no seeds were given, or when a matching checkpoint or frontier snapshot does not fit the strategy.
 */
export function resumeFromStore(
  o: {
    store: CrawlStore;
    strategy: Strategy;
    checkpoints: CheckpointKeeper;
    snapshots: FrontierSnapshots;
    spill: FrontierSpill;
    outDir: string;
    describeConfig: () => Record<string, unknown>;
  },
  extraSeeds: DiscoveredLink[],
): void {
  const { store, strategy, checkpoints } = o;
  store.addSeeds(extraSeeds);
  const stored = store.seeds();
  if (stored.length === 0 && store.pageCount() === 0) {
    throw new ConfigError(
      `${o.outDir} holds a crawl that never started (no seeds were stored): give the seeds again to resume it`,
      { context: { file: o.outDir, field: 'seeds' } },
    );
  }
  // The options of this run (a resume may change budgets) become the stored ones.
  store.setMeta('config', o.describeConfig());
  // A frontier snapshot holds everything the strategy held at its page: the replay then gives
  // only the pages after it, to be learned from. Without one, what the strategy had learned comes
  // back first (its tree routes the seeds and replayed links); the replay then rebuilds the
  // frontier, learning only from pages after the checkpoint.
  const snapshotAt = o.snapshots.restore();
  const learnedThrough = snapshotAt ?? checkpoints.restore();
  // Seeds added now are in `stored` too; those fetched before the kill come back by replay.
  strategy.seed(stored.filter((l) => !store.isFetched(l.url)));
  // The replay goes through the frontier's bound as the live crawl did: the links of pages past it
  // stay in the store until the frontier has room for them.
  const { spill } = o;
  for (const { id, outcome } of store.replayOutcomes(learnedThrough, snapshotAt)) {
    if (spill.shouldHold(outcome.links.length)) {
      spill.held(id, outcome.links.length, outcome.probability);
      strategy.observe({ ...outcome, links: [], areLinksHeld: true });
    } else strategy.observe(outcome);
    spill.refill();
  }
  checkpoints.replayedThrough(store.lastPageId);
}

/** Opens the fetch runner and records what it fetched while no loop listened (before any replay). */
export async function openFetchRunner(
  runner: FetchRunner,
  o: { options: ResolvedCrawlerOptions; strategy: Strategy; store: CrawlStore; recorder: PageRecorder },
): Promise<void> {
  const { options, strategy, store } = o;
  const arrived = await runner.open({
    options,
    needsLinkContext: options.withLinkContext || strategy.needsLinkContext === true,
    linkContextWindow: linkContextWindowOf(options, strategy),
    needsAnchorScores: strategy.needsAnchorScores === true,
    isRecorded: (url) => store.isFetched(url),
  });
  for (const a of arrived) {
    if (store.isFetched(a.action.url)) {
      runner.recorded(a.action.url);
      continue;
    }
    const links = a.outcome.links.filter((l) => !store.isFetched(l.url) && !store.isRedirectTarget(l.url));
    a.record.outlinks = links;
    // Recorded only: a resume's replay hands it to the strategy, a new crawl has none.
    o.recorder.record(a.action, a.record, { ...a.outcome, links }, undefined, false);
    runner.recorded(a.action.url);
  }
}
