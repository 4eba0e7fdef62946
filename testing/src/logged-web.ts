/**
 * A generated web on the replay server that logs every request, robots.txt included (host, path,
 * start and end on the server's clock) and can delay every response, for the cluster's tests and benchmark: the
 * server's own log is the judge of politeness across workers, and the delay makes a worker bound
 * by latency rather than CPU.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createRng,
  createSyntheticWeb,
  sandboxResolveRules,
  startReplayServer,
  systemClock,
} from 'tres-crawler';
import type { HandlerSite, ReplayServer, SyntheticWeb } from 'tres-crawler/internals';

/** One request as the server saw it; times in monotonic ms of the server's process. */
export interface LoggedRequest {
  host: string;
  path: string;
  startMs: number;
  endMs: number;
}

/** Options of {@link startLoggedWeb}. */
export interface LoggedWebOptions {
  /** Seed of the web and of the delays. @default 1 */
  seed?: number;
  /** Hosts of the web. @default 40 */
  hostCount?: number;
  /** Pages of the web. @default 8000 */
  pageCount?: number;
  topics?: string[];
  relevantTopic?: string;
  /** Each response waits a uniform delay in [min, max] ms first; `false` for none. @default false */
  delayMs?: [number, number] | false;
}

/** A running logged web. */
export interface LoggedWeb {
  web: SyntheticWeb;
  server: ReplayServer;
  /** Resolve rules sending every host of the web to the server. */
  resolveRules: string[];
  log: LoggedRequest[];
  close(): Promise<void>;
}

/** Starts the web on loopback. */
export async function startLoggedWeb(options: LoggedWebOptions = {}): Promise<LoggedWeb> {
  const seed = options.seed ?? 1;
  const web = createSyntheticWeb({
    seed,
    hostCount: options.hostCount ?? 40,
    pageCount: options.pageCount ?? 8000,
    ...(options.topics ? { topics: options.topics } : {}),
    ...(options.relevantTopic ? { relevantTopic: options.relevantTopic } : {}),
  });
  const rng = createRng(`${seed}/delays`);
  const delay = options.delayMs ?? false;
  const log: LoggedRequest[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const entry: LoggedRequest = {
      host: String(req.headers.host ?? '').replace(/:\d+$/, ''),
      path: req.url ?? '',
      startMs: systemClock.monotonicMs(),
      endMs: Number.NaN,
    };
    log.push(entry);
    res.once('finish', () => {
      entry.endMs = systemClock.monotonicMs();
    });
  };
  const sites: HandlerSite[] = web.sites().map((site) => ({
    ...site,
    handle: (req: IncomingMessage, res, rel) => {
      if (delay === false) return site.handle(req, res, rel);
      const ms = delay[0] + rng.next() * (delay[1] - delay[0]);
      return new Promise<unknown>((resolve, reject) => {
        setTimeout(() => {
          Promise.resolve(site.handle(req, res, rel)).then(resolve, reject);
        }, ms);
      });
    },
  }));
  const server = await startReplayServer({ sites, onRequest });
  return { web, server, resolveRules: sandboxResolveRules(server), log, close: () => server.close() };
}

/** Closest gap between the end of one request and the start of the next to the same host, in ms. */
export function closestGapMs(log: readonly LoggedRequest[]): { gapMs: number; host: string } {
  const byHost = new Map<string, LoggedRequest[]>();
  for (const r of log) {
    const list = byHost.get(r.host) ?? [];
    list.push(r);
    byHost.set(r.host, list);
  }
  let best = { gapMs: Number.POSITIVE_INFINITY, host: '' };
  for (const [host, list] of byHost) {
    list.sort((a, b) => a.startMs - b.startMs);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.startMs - list[i - 1]!.endMs;
      if (gap < best.gapMs) best = { gapMs: gap, host };
    }
  }
  return best;
}
