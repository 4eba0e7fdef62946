/**
 * The crawl scope of a benchmark run. In the closed world (the default) links that leave the web
 * are not attempted and not counted: links to hosts the web does not serve, and, where the web
 * knows its pages (DocWeb), links to pages of a served host that the mirror does not have (a
 * license page of www.gnu.org, SQLite's source browser: live on the real web, absent here only
 * because no package ships them). They are dropped before the strategy sees them, as a user's
 * allowed-domains filter would drop them. The open world (`--open-world`)
 * hands them on, so they are attempted and fail as dead links, as on the real web. Either way
 * the distinct links discovered and those that leave the web are counted for the report.
 */
import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from 'tres-crawler';
import type { LinkContextWindow } from 'tres-crawler/internals';

/** Wraps a strategy: filters (closed world) and counts the links that leave the web. */
export class WebScopeStrategy implements Strategy {
  private readonly discovered = new Set<string>();
  private outOfWeb = 0;
  /** The inner strategy's checkpoint contract, when it has one (the crawl loop looks for it). */
  readonly checkpoint?: () => unknown;
  readonly restore?: (checkpoint: unknown) => void;

  /**
   * @param inner the strategy being measured
   * @param servedHosts hosts the web serves
   * @param isClosedWorld drop links that leave the web (true) or hand them on (false)
   * @param hasPage true if the web has a page at the URL (after its redirects); links to a
   *   served host's other URLs leave the web too. @default every URL of a served host
   */
  constructor(
    readonly inner: Strategy,
    private readonly servedHosts: ReadonlySet<string>,
    private readonly isClosedWorld: boolean,
    private readonly hasPage?: (url: string) => boolean,
  ) {
    const { checkpoint, restore } = inner;
    if (checkpoint) this.checkpoint = () => checkpoint.call(inner);
    if (restore) this.restore = (c) => restore.call(inner, c);
  }

  get config(): unknown {
    return this.inner.config;
  }

  get name(): string {
    return this.inner.name;
  }

  get needsAnchorScores(): boolean | undefined {
    return this.inner.needsAnchorScores;
  }

  get needsLinkContext(): boolean | undefined {
    return this.inner.needsLinkContext;
  }

  get linkContextWindow(): Readonly<LinkContextWindow> | undefined {
    return this.inner.linkContextWindow;
  }

  seed(links: DiscoveredLink[]): void {
    this.inner.seed(this.scope(links));
  }

  next(ctx: SelectionContext): Action | undefined {
    return this.inner.next(ctx);
  }

  observe(outcome: Outcome): void {
    this.inner.observe({ ...outcome, links: this.scope(outcome.links) });
  }

  stats(): StrategyStats {
    return {
      ...this.inner.stats(),
      'scope/links_discovered': this.discovered.size,
      'scope/links_out_of_web': this.outOfWeb,
    };
  }

  private scope(links: DiscoveredLink[]): DiscoveredLink[] {
    const kept: DiscoveredLink[] = [];
    for (const link of links) {
      const isServed = this.servedHosts.has(link.host) && (this.hasPage?.(link.url) ?? true);
      if (!this.discovered.has(link.url)) {
        this.discovered.add(link.url);
        if (!isServed) this.outOfWeb++;
      }
      if (isServed || !this.isClosedWorld) kept.push(link);
    }
    return kept;
  }
}
