/**
 * Render: pages that need JavaScript, rendered in chromium (playwright-core, loaded lazily) with
 * every browser request going through the crawl's politeness, robots.txt and address guard.
 */
export { DEFAULT_RENDER_OPTIONS, type RenderOptions, resolveRenderOptions } from './render-options.js';
export { Renderer, type RendererDeps, type RenderPhases, type RenderStats } from './renderer.js';
