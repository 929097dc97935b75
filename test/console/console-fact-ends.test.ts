/**
 * The Memory view showed no end for a temporary fact ("I can't lift heavy things for a month": its own end is
 * `valid_until`, `valid_to` stays null), so one whose end had passed looked current. It now shows "until …",
 * and a fact past its end is marked ended and shown as not current. Seeded straight into the store, shown in
 * Debian's chromium. Skipped only when /usr/bin/chromium is missing.
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
const DAY = 24 * 60 * 60 * 1000;

describe('browser console: a temporary fact shows its end, and is marked ended once it has passed', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  before(async () => {
    t = await startTestApp();
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('ended: "until …", "ended", not current; still running: "until …", current', { timeout: 300_000 }, async () => {
    const ana = (await t.app.stores.graph.createParticipant(T, { name: 'Ana' })).id;
    const fact = (content: string, fromMsAgo: number, untilMsAgo: number | null): NewFact => {
      const from = new Date(Date.now() - fromMsAgo).toISOString();
      return {
        content, speakerId: ana, addresseeIds: [], subjectId: ana, kind: 'statement', slot: null, value: null, time: from, referIds: [],
        validFrom: from, supersedes: null, confidence: 0.7, sessionId: 'seed', source: 'test',
        validUntil: untilMsAgo === null ? null : new Date(Date.now() - untilMsAgo).toISOString(),
      };
    };
    await t.app.stores.memory.addFacts(T, [
      fact('Ana cannot lift heavy things', 60 * DAY, 30 * DAY),
      fact('Ana is staying in Lisbon', DAY, -7 * DAY),
      fact('Ana likes tea', DAY, null),
    ]);
    await page.goto(`${t.httpUrl}/console/#memory`);
    const row = (text: RegExp) => page.locator('.memory .fact', { has: page.locator('.fact-text', { hasText: text }) });
    await row(/tea/).waitFor({ timeout: 60_000 });

    const lift = row(/heavy/);
    assert.equal(await lift.getAttribute('class'), 'fact closed ended', 'an ended fact is not shown as current');
    assert.match(await lift.innerText(), / until .* · ended/);
    const stay = row(/Lisbon/);
    assert.equal(await stay.getAttribute('class'), 'fact current');
    assert.match(await stay.innerText(), / until /);
    assert.doesNotMatch(await stay.innerText(), /ended/);
    const tea = row(/tea/);
    assert.equal(await tea.getAttribute('class'), 'fact current');
    assert.doesNotMatch(await tea.innerText(), /until|ended/);
  });
});
