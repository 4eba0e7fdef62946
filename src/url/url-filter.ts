/**
 * Which URLs may enter the frontier at all: a cheap predicate built once from options, run on
 * every normalised outlink before any learning sees it.
 */
import { domainToASCII } from 'node:url';
import { ConfigError } from '../common/index.js';
import { hostOf, pathOf } from './url-parts.js';

/** Options of {@link createUrlFilter}. */
export interface UrlFilterOptions {
  /**
   * Schemes a URL may have, without the colon, any case.
   * @default ['http', 'https']
   */
  allowedSchemes?: readonly string[];
  /**
   * Longest URL accepted, in characters (UTF-16 code units). Very long URLs are mostly traps
   * (calendars, session state in the path). Turn off with `false`.
   * @default 2048
   */
  maxUrlLength?: number | false;
  /**
   * File extensions (without the dot, any case) of URLs that are obviously neither HTML nor PDF:
   * images, archives, media, office documents, fonts, scripts and styles (PDFs are read since
   * the crawler extracts their text; a crawl with `pdf: false` adds `pdf` to this list).
   * Matched on the last path segment only, not the query. Turn off with `false`.
   * @default DEFAULT_EXCLUDED_EXTENSIONS
   */
  excludedExtensions?: readonly string[] | false;
  /**
   * Regular expressions (strings or RegExp) tested on the whole URL; when the list is not
   * empty, a URL must match at least one. Flags `g` and `y` are dropped (they make `test`
   * stateful).
   * @default [] (everything is included)
   */
  includePatterns?: readonly (string | RegExp)[];
  /**
   * Regular expressions tested on the whole URL; a URL matching any is rejected.
   * @default []
   */
  excludePatterns?: readonly (string | RegExp)[];
  /**
   * Restrict the crawl to these domains or hosts: a URL passes if its host equals an entry or
   * is a subdomain of one (`example.com` admits `docs.example.com`; `docs.example.com` does
   * not admit `example.com`). Entries may be IDNs or start with `*.` or `.`. Turn off (any
   * host) with `false`.
   * @default false
   */
  allowedDomains?: readonly string[] | false;
}

/** Extensions of obvious non-HTML resources, rejected by default. */
export const DEFAULT_EXCLUDED_EXTENSIONS: readonly string[] = Object.freeze([
  // images
  ...['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'svgz', 'ico', 'tif', 'tiff', 'avif', 'heic'],
  // archives and packages
  ...['zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'deb', 'rpm', 'dmg', 'iso', 'jar'],
  ...['apk', 'exe', 'msi', 'bin'],
  // audio and video
  ...['mp3', 'mp4', 'm4a', 'm4v', 'aac', 'wav', 'flac', 'ogg', 'oga', 'ogv', 'opus', 'webm', 'mkv'],
  ...['avi', 'mov', 'wmv', 'wma', 'mpg', 'mpeg', 'flv', 'swf'],
  // documents that are neither HTML nor PDF
  ...['ps', 'eps', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf'],
  ...['epub', 'djvu', 'chm'],
  // fonts, styles, scripts
  ...['woff', 'woff2', 'ttf', 'otf', 'eot', 'css', 'js', 'mjs', 'map'],
]);

/** Defaults of {@link UrlFilterOptions}. */
export const DEFAULT_URL_FILTER_OPTIONS: Readonly<Required<UrlFilterOptions>> = Object.freeze({
  allowedSchemes: ['http', 'https'],
  maxUrlLength: 2048,
  excludedExtensions: DEFAULT_EXCLUDED_EXTENSIONS,
  includePatterns: [],
  excludePatterns: [],
  allowedDomains: false,
});

/** A predicate over URL strings: true if the URL may be crawled. */
export type UrlFilter = (url: string) => boolean;

/**
 * Builds a URL predicate from `options` (defaults from {@link DEFAULT_URL_FILTER_OPTIONS}).
 * The predicate expects normalised absolute URLs (`normalizeUrl`) and never throws.
 *
 * @throws {ConfigError} naming the field (`includePatterns[2]`, `maxUrlLength`, ...) when an
 *   option is out of range or a regular expression does not compile.
 */
export function createUrlFilter(options: UrlFilterOptions = {}): UrlFilter {
  const reason = createUrlFilterReason(options);
  return (url: string): boolean => reason(url) === undefined;
}

/**
 * Like {@link createUrlFilter}, but says why a URL is rejected, naming the option (for messages:
 * `its extension .zip is in excludedExtensions`); undefined when the URL is accepted.
 * @throws {ConfigError} as {@link createUrlFilter}.
 */
export function createUrlFilterReason(options: UrlFilterOptions = {}): (url: string) => string | undefined {
  const o = { ...DEFAULT_URL_FILTER_OPTIONS, ...stripUndefined(options) };
  const schemes = compileSchemes(o.allowedSchemes);
  const maxLength = compileMaxLength(o.maxUrlLength);
  const extensions = o.excludedExtensions === false ? undefined : compileExtensions(o.excludedExtensions);
  const includes = compilePatterns(o.includePatterns, 'includePatterns');
  const excludes = compilePatterns(o.excludePatterns, 'excludePatterns');
  const domains = o.allowedDomains === false ? undefined : compileDomains(o.allowedDomains);

  return (url: string): string | undefined => {
    if (url.length > maxLength) return `it is longer than maxUrlLength (${maxLength} characters)`;
    const colon = url.indexOf(':');
    if (colon <= 0 || !schemes.has(url.slice(0, colon).toLowerCase()))
      return `its scheme is not in allowedSchemes (${[...schemes].join(', ')})`;
    const extension = extensions === undefined ? '' : extensionOf(pathOf(url));
    if (extensions?.has(extension))
      return `its extension .${extension} is in excludedExtensions (files tres does not read)`;
    if (domains !== undefined && !isHostAllowed(hostOf(url), domains))
      return `its host ${hostOf(url)} is not in allowedDomains`;
    if (includes.length > 0 && !includes.some((re) => re.test(url)))
      return 'it matches none of includePatterns';
    const excluded = excludes.find((re) => re.test(url));
    return excluded === undefined ? undefined : `it matches excludePatterns ${String(excluded)}`;
  };
}

/** Lowercased extension of the last path segment, '' if none. */
function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.');
  if (dot === -1 || path.indexOf('/', dot) !== -1) return '';
  return path.slice(dot + 1).toLowerCase();
}

/** True if `host` or one of its parent domains is in `domains`. */
function isHostAllowed(host: string, domains: ReadonlySet<string>): boolean {
  if (domains.has(host)) return true;
  for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
    if (domains.has(host.slice(dot + 1))) return true;
  }
  return false;
}

function stripUndefined(options: UrlFilterOptions): UrlFilterOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

function fail(field: string, message: string, cause?: unknown): never {
  throw new ConfigError(`URL filter option ${field}: ${message}`, { context: { field }, cause });
}

function compileSchemes(schemes: readonly string[]): ReadonlySet<string> {
  if (!Array.isArray(schemes) || schemes.length === 0)
    fail('allowedSchemes', 'give at least one scheme, e.g. ["http", "https"]');
  return new Set(
    schemes.map((scheme, i) => {
      const name = typeof scheme === 'string' ? scheme.toLowerCase().replace(/:$/, '') : '';
      if (!/^[a-z][a-z0-9+.-]*$/.test(name))
        fail(`allowedSchemes[${i}]`, `"${String(scheme)}" is not a scheme name`);
      return name;
    }),
  );
}

function compileMaxLength(maxUrlLength: number | false): number {
  if (maxUrlLength === false) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(maxUrlLength) || maxUrlLength < 1) {
    fail('maxUrlLength', `expected a positive integer or false, got ${String(maxUrlLength)}`);
  }
  return maxUrlLength;
}

function compileExtensions(extensions: readonly string[]): ReadonlySet<string> {
  if (!Array.isArray(extensions)) fail('excludedExtensions', 'expected a list of extensions or false');
  return new Set(
    extensions.map((ext, i) => {
      if (typeof ext !== 'string' || ext.replace(/^\./, '') === '') {
        fail(`excludedExtensions[${i}]`, `expected an extension such as "pdf", got ${JSON.stringify(ext)}`);
      }
      return ext.replace(/^\./, '').toLowerCase();
    }),
  );
}

function compilePatterns(patterns: readonly (string | RegExp)[], field: string): RegExp[] {
  if (!Array.isArray(patterns)) fail(field, 'expected a list of regular expressions');
  return patterns.map((pattern, i) => {
    if (pattern instanceof RegExp) return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    if (typeof pattern !== 'string')
      fail(`${field}[${i}]`, `expected a string or RegExp, got ${typeof pattern}`);
    try {
      return new RegExp(pattern);
    } catch (error) {
      return fail(
        `${field}[${i}]`,
        `invalid regular expression ${JSON.stringify(pattern)} (${(error as Error).message})`,
        error,
      );
    }
  });
}

function compileDomains(domains: readonly string[]): ReadonlySet<string> {
  if (!Array.isArray(domains) || domains.length === 0) {
    fail('allowedDomains', 'give at least one domain or host, or false to allow any');
  }
  return new Set(
    domains.map((domain, i) => {
      const bare = typeof domain === 'string' ? domain.trim().replace(/^\*?\./, '') : '';
      const ascii = bare === '' ? '' : domainToASCII(bare);
      if (ascii === '')
        fail(`allowedDomains[${i}]`, `${JSON.stringify(domain)} is not a valid domain or host`);
      return ascii;
    }),
  );
}
