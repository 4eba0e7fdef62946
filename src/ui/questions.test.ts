/**
 * The crawl's questions in the dashboard: the REST API (`/api/questions`) and the questions panel
 * in a real browser (Debian's chromium via playwright-core; that part is skipped, with a message,
 * only where /usr/bin/chromium is missing).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../crawl/index.js';
import { startTestCrawl, type TestCrawl } from './test-crawl.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`questions browser test skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

interface QuestionsView {
  isAsking: boolean;
  asked: number;
  answered: number;
  maxQuestions: number | false;
  open: Question[];
}

describe('questions in the dashboard', () => {
  let t: TestCrawl;
  const json = { 'content-type': 'application/json' };
  const questions = async () =>
    (await (await fetch(`${t.dashboard.url}api/questions`)).json()) as QuestionsView;
  const post = (id: number | string, body: unknown) =>
    fetch(`${t.dashboard.url}api/questions/${id}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestCrawl({
      pauseAtStep: 100,
      crawler: {
        ask: true,
        maxQuestions: 12,
        questions: { everyPages: 4, maxOpen: 12, minInformativeness: 0 },
      },
      feedback: { retrainAfterLabels: 4 },
    });
    while (!t.crawler.isPaused || t.crawler.progress().inFlight > 0)
      await new Promise((r) => setTimeout(r, 20));
  }, 60_000);
  afterAll(() => t?.close());

  it('lists the open questions and takes an answer, a skip, and refuses what it cannot take', async () => {
    const before = await questions();
    expect(before.isAsking).toBe(true);
    expect(before.maxQuestions).toBe(12);
    expect(before.open.length).toBeGreaterThanOrEqual(6);
    expect(before.asked).toBe(before.open.length);
    const [first, second] = before.open as [Question, Question];
    expect(first).toMatchObject({
      id: 1,
      url: expect.stringMatching(/^http:/),
      why: expect.stringContaining('unsure'),
    });
    expect(first.excerpt.length).toBeGreaterThan(0);

    const answered = await post(first.id, { relevant: t.isRelevant(first.url) });
    expect(answered.status).toBe(200);
    const label = t.crawler.openStore!.labels().find((l) => l.pageId === first.pageId);
    expect(label).toMatchObject({ source: 'answer', isRelevant: t.isRelevant(first.url) });
    expect((await post(second.id, { relevant: null })).status).toBe(200);
    const after = await questions();
    expect(after.open.map((q) => q.id)).not.toContain(first.id);
    expect(after.open.map((q) => q.id)).not.toContain(second.id);
    expect(after.answered).toBe(1);

    expect((await post(first.id, { relevant: true })).status).toBe(409); // answered already
    expect((await post(after.open[0]!.id, { relevant: 'yes' })).status).toBe(400);
    expect((await post('x', { relevant: true })).status).toBe(404);
    expect((await fetch(`${t.dashboard.url}api/questions/${after.open[0]!.id}`)).status).toBe(405);
  });

  it.skipIf(!hasChromium)(
    'shows each open question with its page and reason, and one click per answer retrains the judge',
    async () => {
      const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        await page.goto(t.dashboard.url);
        const open = (await questions()).open;
        const cards = page.locator('#questions article.question');
        await cards.first().waitFor();
        expect(await cards.count()).toBe(open.length);
        const first = cards.first();
        expect(await first.locator('h3').textContent()).toBe(open[0]!.title || '(no title)');
        expect(await first.locator('a.url').getAttribute('href')).toBe(open[0]!.url);
        expect(await first.locator('.why').textContent()).toContain(open[0]!.why);
        expect(await first.locator('.excerpt').textContent()).toBe(open[0]!.excerpt);

        // Answer by the web's ground truth with one click each, in an order that makes the first
        // four labels (with the one answered through the API) two of each class: the feedback
        // retrains after 4 labels and needs 2 of each.
        const firstLabel = t.crawler.openStore!.labels()[0]!;
        const yes = open.filter((q) => t.isRelevant(q.url));
        const no = open.filter((q) => !t.isRelevant(q.url));
        const [need, other] = firstLabel.isRelevant ? [no, yes] : [yes, no];
        expect(need.length).toBeGreaterThanOrEqual(2);
        expect(other.length).toBeGreaterThanOrEqual(1);
        const order = [
          need[0]!,
          need[1]!,
          other[0]!,
          ...open.filter((q) => ![need[0], need[1], other[0]].includes(q)),
        ];
        for (const q of order) {
          const isRelevant = t.isRelevant(q.url);
          await page
            .locator(`article[data-question-id="${q.id}"] button.${isRelevant ? 'q-yes' : 'q-no'}`)
            .click();
          await page.locator(`article[data-question-id="${q.id}"]`).waitFor({ state: 'detached' });
        }
        const answers = t.crawler.openStore!.labels().filter((l) => l.source === 'answer');
        expect(answers).toHaveLength(open.length + 1); // and the one answered through the API
        for (const a of answers) expect(a.isRelevant).toBe(t.isRelevant(a.url));
        expect(await cards.count()).toBe(0);
        await page.locator('#questions-summary', { hasText: 'No open question right now' }).waitFor();
        const done = page.locator('#feedback tbody tr', { hasText: /swapped in|kept the current judge/ });
        await done.first().waitFor({ timeout: 60_000 });
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
