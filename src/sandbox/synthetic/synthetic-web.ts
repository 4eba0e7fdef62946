/**
 * A seeded, deterministic, procedural topical web. Only the host table and the vocabularies live
 * in memory; a page is rendered on request from (seed, host, index), so a web of millions of
 * pages costs a few megabytes. Ground truth: a page is relevant iff its topic is `relevantTopic`.
 *
 * Shape (see `synthetic-options.ts` for every knob and `page-links.ts` for the link model):
 * Zipf host sizes; hosts mostly of one topic, some mixed; log-normal (heavy-tailed) out-degree;
 * ~80% of links stay on the host and ~80% keep the topic; a few hubs link across hosts; ~1.5% of
 * links are broken (404 or dead host); every page reachable from any home page.
 */
import { createRng } from '../../common/index.js';
import type { HandlerSite } from '../replay/index.js';
import { htmlDocument, sendHtml, sendStatus } from '../replay/index.js';
import { buildHostTable, type HostTable, hostTableBytes } from './host-table.js';
import { type LinkTarget, outLinks } from './page-links.js';
import { renderPageHtml } from './page-render.js';
import { materializeWeb, writeLabelsFile } from './synthetic-files.js';
import { resolveSyntheticOptions, type SyntheticWebOptions } from './synthetic-options.js';
import type { MaterializeOptions, PageLabel, SyntheticWeb } from './synthetic-web-types.js';
import { buildVocabulary } from './vocabulary.js';
import { type PageRef, WebModel } from './web-model.js';

export type { PageLabel, SyntheticWeb } from './synthetic-web-types.js';

class ProceduralWeb implements SyntheticWeb {
  readonly options: Readonly<SyntheticWebOptions>;
  readonly hosts: readonly string[];
  readonly pageCount: number;
  readonly table: HostTable;
  private readonly model: WebModel;
  private readonly relevant: number;

  constructor(options: SyntheticWebOptions) {
    this.options = Object.freeze(options);
    const vocabulary = buildVocabulary(options);
    this.table = buildHostTable(options, vocabulary);
    this.model = new WebModel(options, vocabulary, this.table);
    this.hosts = Object.freeze([...this.table.names]);
    this.pageCount = options.pageCount;
    this.relevant = options.topics.indexOf(options.relevantTopic);
  }

  renderPage(host: string, path: string): { status: number; html: string } | undefined {
    const h = this.table.byName.get(host.toLowerCase());
    if (h === undefined) return undefined;
    const index = this.model.indexOfPath(h, path);
    if (index === undefined) {
      return {
        status: 404,
        html: htmlDocument('404 Not Found', `<h1>Not Found</h1>\n<p><a href="/">Home</a></p>`),
      };
    }
    return { status: 200, html: renderPageHtml(this.model, h, index) };
  }

  locate(url: string): PageRef | undefined {
    return this.model.locate(url);
  }

  labelOf(url: string): boolean | undefined {
    const page = this.model.locate(url);
    return page && this.model.topicOf(page.host, page.index) === this.relevant;
  }

  topicOf(url: string): string | undefined {
    const page = this.model.locate(url);
    return page && this.options.topics[this.model.topicOf(page.host, page.index)];
  }

  urlOf(host: number, index: number): string {
    return this.model.urlOf(host, index);
  }

  topicAt(host: number, index: number): string {
    return this.options.topics[this.model.topicOf(host, index)] as string;
  }

  pageAt(id: number): PageRef {
    return this.model.pageOfGlobalId(id);
  }

  isHub(host: number, index: number): boolean {
    return this.model.isHub(host, index);
  }

  outLinks(host: number, index: number): LinkTarget[] {
    return outLinks(this.model, host, index);
  }

  *labels(): Generator<PageLabel> {
    const { topics } = this.options;
    for (let h = 0; h < this.model.hostCount; h++) {
      const base = `http://${this.table.names[h]}`;
      const mainTopic = this.table.mainTopic[h] as number;
      yield { url: `${base}/`, isRelevant: mainTopic === this.relevant, topic: topics[mainTopic] as string };
      const permutation = this.model.permutationOf(h);
      for (let n = 0; n < permutation.n; n++) {
        const t = this.model.topicOf(h, permutation.inverse(n) + 1);
        yield { url: `${base}/p/${n}.html`, isRelevant: t === this.relevant, topic: topics[t] as string };
      }
    }
  }

  seedUrls(n: number, filter: { relevant?: boolean } = {}): string[] {
    const candidates = [...this.table.names.keys()].filter(
      (h) => filter.relevant === undefined || (this.table.mainTopic[h] === this.relevant) === filter.relevant,
    );
    createRng(`${this.options.seed}`).fork('seed-urls').shuffle(candidates);
    return candidates.slice(0, Math.max(0, n)).map((h) => this.model.urlOf(h, 0));
  }

  sites(): HandlerSite[] {
    return this.table.names.map((host) => ({
      host,
      handle: (req, res, relPath) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendStatus(req, res, 405);
        const page = this.renderPage(host, `/${relPath}`);
        if (!page) return sendStatus(req, res, 404);
        sendHtml(res, page.status, page.html);
      },
    }));
  }

  memoryBytes(): number {
    const { topicWords, commonWords } = this.model.vocabulary;
    let wordBytes = 0;
    for (const word of [...topicWords.flat(), ...commonWords]) wordBytes += 40 + 2 * word.length;
    return hostTableBytes(this.table) + wordBytes;
  }

  writeLabels(path: string): Promise<number> {
    return writeLabelsFile(this, path);
  }

  materialize(dir: string, options?: MaterializeOptions): Promise<void> {
    return materializeWeb(this, dir, options);
  }
}

/**
 * Creates a procedural synthetic web. Cost: O(hostCount) time and memory, independent of pageCount.
 * @throws ConfigError naming the option that is out of range or inconsistent.
 */
export function createSyntheticWeb(options: Partial<SyntheticWebOptions> = {}): SyntheticWeb {
  return new ProceduralWeb(resolveSyntheticOptions(options));
}
