import { describe, expect, it } from 'vitest';
import { parseXRobotsTag } from './indexing-directives.js';

describe('parseXRobotsTag', () => {
  it('reads noindex, nofollow and none for every crawler', () => {
    expect(parseXRobotsTag('noindex, nofollow', 'tres')).toEqual({ isNoindex: true, isNofollow: true });
    expect(parseXRobotsTag('NONE', 'tres')).toEqual({ isNoindex: true, isNofollow: true });
    expect(parseXRobotsTag('noarchive, max-snippet: 20', 'tres')).toEqual({
      isNoindex: false,
      isNofollow: false,
    });
    expect(parseXRobotsTag(undefined, 'tres')).toEqual({ isNoindex: false, isNofollow: false });
  });

  it('applies directives after a user-agent prefix only to that crawler', () => {
    expect(parseXRobotsTag('otherbot: noindex, nofollow', 'tres')).toEqual({
      isNoindex: false,
      isNofollow: false,
    });
    expect(parseXRobotsTag('otherbot: noindex, tres: nofollow', 'TRES')).toEqual({
      isNoindex: false,
      isNofollow: true,
    });
    expect(parseXRobotsTag('unavailable_after: 25 Jun 2010 15:00:00 PST, noindex', 'tres').isNoindex).toBe(
      true,
    );
  });
});
