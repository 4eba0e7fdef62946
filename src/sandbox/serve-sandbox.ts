/**
 * One call that puts a sandbox web on loopback: a synthetic web (new, or loaded from a folder),
 * the fault sites, and any folder sites (DocWeb), all behind one replay server. What
 * `tres sandbox serve` runs.
 */
import { ConfigError } from '../common/index.js';
import type { FaultSitesOptions } from './faults/index.js';
import { FAULT_INDEX_URL, faultSites } from './faults/index.js';
import type { SiteSource } from './replay/index.js';
import { type ReplayServer, type ReplayServerOptions, startReplayServer } from './replay/index.js';
import type { SyntheticWebOptions } from './synthetic/index.js';
import {
  createSyntheticWeb,
  loadSyntheticWeb,
  materializedSites,
  type SyntheticWeb,
} from './synthetic/index.js';

/** Options of {@link serveSandbox}. */
export interface ServeSandboxOptions {
  /**
   * The synthetic web to serve: a folder made by `materialize` (its page files are served if it
   * has them and `preferFiles` is true, else its pages are rendered from `web.json`), options for
   * a new procedural web, or a web already made.
   * @default undefined (no synthetic web)
   */
  web?: string | Partial<SyntheticWebOptions> | SyntheticWeb;
  /** Also serve the fault sites (`true`, or their options). @default false */
  faults?: boolean | FaultSitesOptions;
  /** More sites, e.g. DocWeb folders. @default [] */
  folders?: SiteSource[];
  /** Serve a materialized web's page files rather than rendering its pages. @default true */
  preferFiles?: boolean;
  /** Options of the replay server (port, unknownHost, cache sizes). @default the server's defaults */
  server?: Omit<ReplayServerOptions, 'sites'>;
}

/** A running sandbox. */
export interface Sandbox {
  server: ReplayServer;
  /** The synthetic web, if one is served (for labels and seeds). */
  web: SyntheticWeb | undefined;
  /** Some seed URLs: 5 relevant home pages of the synthetic web, and the fault index if served. */
  seedUrls: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

function isSyntheticWeb(value: unknown): value is SyntheticWeb {
  return (
    typeof value === 'object' && value !== null && typeof (value as SyntheticWeb).renderPage === 'function'
  );
}

/**
 * Starts a replay server with the chosen sites.
 * @throws ConfigError if nothing is to be served, a web folder cannot be loaded, or two sites
 *   collide (same host and prefix).
 */
export async function serveSandbox(options: ServeSandboxOptions): Promise<Sandbox> {
  const sites: SiteSource[] = [...(options.folders ?? [])];
  let web: SyntheticWeb | undefined;
  if (typeof options.web === 'string') {
    web = await loadSyntheticWeb(options.web);
    const files = options.preferFiles === false ? [] : await materializedSites(options.web);
    sites.push(...(files.length > 0 ? files : web.sites()));
  } else if (options.web !== undefined) {
    web = isSyntheticWeb(options.web) ? options.web : createSyntheticWeb(options.web);
    sites.push(...web.sites());
  }
  if (options.faults) sites.push(...faultSites(options.faults === true ? {} : options.faults));
  if (sites.length === 0)
    throw new ConfigError('serveSandbox: nothing to serve (give web, faults or folders)');
  const server = await startReplayServer({ ...options.server, sites });
  const seedUrls = [
    ...(web ? web.seedUrls(5, { relevant: true }) : []),
    ...(options.faults ? [FAULT_INDEX_URL] : []),
  ];
  return { server, web, seedUrls, close: () => server.close() };
}
