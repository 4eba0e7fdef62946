/** Fixtures shared by the tests that crawl a small generated web (not part of the build). */
import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from './serve-sandbox.js';
import { serveSandbox } from './serve-sandbox.js';

/**
 * Serves, for the enclosing `describe`, a 3,000-page web on 30 hosts where `topic` is relevant
 * and cooking recipes are not (web seed 5): the web the strategy resume and crawl tests share.
 * Returns a getter: the sandbox exists only once `beforeAll` has run.
 */
export function twoTopicSandbox(topic: string): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await serveSandbox({
      web: {
        seed: 5,
        hostCount: 30,
        pageCount: 3000,
        topics: [topic, 'cooking recipes'],
        relevantTopic: topic,
      },
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (sandbox === undefined) throw new Error('the sandbox is served from beforeAll on');
    return sandbox;
  };
}
