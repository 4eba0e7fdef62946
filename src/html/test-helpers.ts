/** Helpers for tests of parsed pages (not part of the room's API). */
import type { LinkContext } from './types.js';

/**
 * `items` with each link context as the plain `{ tokens, offsets }` it reads as. A parsed
 * context (`LazyLinkContext`) builds both on first read through accessors on its prototype, so
 * it has no own property for `toEqual` to compare: two parses would compare equal whatever
 * their contexts held.
 */
export function withPlainContexts<T extends { context?: LinkContext }>(items: readonly T[]): T[] {
  return items.map((item) =>
    item.context === undefined
      ? item
      : {
          ...item,
          context: { tokens: [...item.context.tokens], offsets: Int8Array.from(item.context.offsets) },
        },
  );
}

/** A parsed page with {@link withPlainContexts} links. */
export function withPlainLinks<T extends { links: readonly { context?: LinkContext }[] }>(page: T): T {
  return { ...page, links: withPlainContexts(page.links) };
}
