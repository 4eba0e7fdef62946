/**
 * HTML: one streaming pass over a page gives its title, visible text, links with anchor text
 * and DOM context, and the meta directives a crawler obeys.
 */
export { CONTEXT_TOKENS_PER_LEAF, LazyLinkContext, tokenizeInto } from './link-context.js';
export { parseMetaRefreshUrl } from './meta-refresh.js';
export { parseHtml } from './parse-html.js';
export {
  DEFAULT_PARSE_BOUNDS,
  PARSE_TIMEOUT_CODE,
  type ParseHtmlBoundedOptions,
  parseHtmlBounded,
} from './parse-html-bounded.js';
export {
  contextWindowOptions,
  DEFAULT_PARSE_HTML_OPTIONS,
  type ParseHtmlOptions,
} from './parse-html-options.js';
export type { LinkContext, MetaRobots, ParsedLink, ParsedPage } from './types.js';
