/**
 * The console reads whole listings: the Memory and Graph views follow `next_cursor` past the API's first page (1,000
 * items) up to 5,000 items, and say so when a listing goes on past that. Seeded straight into the stores (thousands of
 * memories and turns), shown in Debian's chromium. Skipped only when /usr/bin/chromium is missing.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { NewFact } from '../../graph/memory-store.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchWithMicrophone } from '../helpers/chromium.js';

const T = 'default';
const AT = '2026-12-01T10:00:00.000Z';

describe('browser console: listings past one page', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let ana = '';
  let ben = '';
  const requests: string[] = [];

  /** `n` memories about `subjectId`, each its own. */
  const seedFacts = async (subjectId: string, n: number): Promise<void> => {
    const facts: NewFact[] = Array.from({ length: n }, (_, i) => ({
      content: `${subjectId} note ${i}`, speakerId: subjectId, addresseeIds: [], subjectId, kind: 'statement', slot: null, value: null,
      time: AT, referIds: [], validFrom: AT, supersedes: null, confidence: 0.7, sessionId: 'seed', source: 'test',
    }));
    await t.app.stores.memory.addFacts(T, facts);
  };
  /** `n` turns of `from` to `to` in session `sessionId`, a second apart from `startS` seconds after AT. */
  const seedTurns = async (sessionId: string, from: string, to: string, n: number, startS = 0): Promise<void> => {
    await t.app.stores.graph.openSession(T, sessionId, AT);
    await t.app.stores.graph.addUtterances(T, Array.from({ length: n }, (_, i) => ({
      sessionId, speakerId: from, addresseeIds: [to], text: `turn ${i}`, startMs: null, endMs: null,
      time: new Date(Date.parse(AT) + (startS + i) * 1000).toISOString(), confidence: null, audioRef: null,
    })));
  };
  const cursorsFollowed = (listing: string): number => requests.filter((u) => u.includes(listing) && /[?&]cursor=/.test(u)).length;

  before(async () => {
    t = await startTestApp(); // no API keys configured: no key asked
    ana = (await t.app.stores.graph.createParticipant(T, { name: 'Ana' })).id;
    ben = (await t.app.stores.graph.createParticipant(T, { name: 'Ben' })).id;
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    page.on('request', (r) => requests.push(r.url()));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('Memory: 1,200 facts of one person all shown; 5,200 in all: the first 5,000 and a notice', { timeout: 300_000 }, async () => {
    await seedFacts(ana, 1200);
    await page.goto(`${t.httpUrl}/console/#memory`);
    await page.getByLabel('person').selectOption(ana);
    await page.locator('.memory .fact').nth(1199).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.memory .fact').count(), 1200, 'both pages of Ana\'s facts, nothing more');
    assert.equal(await page.locator('.memory .cut').count(), 0, 'no notice when the whole listing is shown');
    assert.ok(cursorsFollowed('/v1/memories') >= 1, 'the second page was asked for with next_cursor');

    await seedFacts(ben, 4000);
    await page.reload();
    await page.locator('.memory .cut').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('.memory .fact').count(), 5000);
    assert.equal(await page.locator('.memory .cut').innerText(), 'showing the first 5,000 facts, newest first');
  });

  test('Graph: 1,500 turns of a session all counted; 5,500 in all: the newest 5,000 and a notice', { timeout: 300_000 }, async () => {
    await seedTurns('paged', ana, ben, 1500);
    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.getByLabel('session id').fill('paged');
    await page.getByLabel('session id').press('Tab');
    // Both pages counted: 1,500 turns, not the first page's 1,000.
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"] td:nth-child(3)`, { hasText: /^1500$/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.graph .cut').count(), 0);
    assert.ok(cursorsFollowed('/v1/interactions') >= 1, 'the second page was asked for with next_cursor');

    // Newer turns the other way: the newest 5,000 of all are Ben's 4,000 and 1,000 of Ana's.
    await seedTurns('later', ben, ana, 4000, 3600);
    await page.locator('.graph input[name="scope"]').nth(1).check();
    await page.locator('.graph .cut').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('.graph .cut').innerText(), 'showing the first 5,000 turns, newest first: the graph leaves older ones out');
    assert.equal(await page.locator(`.graph tr[data-edge="${ben}->${ana}"] td`).nth(2).innerText(), '4000');
    assert.equal(await page.locator(`.graph tr[data-edge="${ana}->${ben}"] td`).nth(2).innerText(), '1000', 'Ana\'s newest 1,000 turns');
  });
});
