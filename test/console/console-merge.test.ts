/**
 * The console's Live view shows `speaker.merged`: one voice (the awb fixture, played by chromium's fake
 * microphone) split into several ids by a strict online threshold is merged at session end, and the page
 * relabels the turns. Skipped only when /usr/bin/chromium is missing.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { FRAGMENT_THEN_MERGE_ENV, startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchWithMicrophone, SLOW } from '../helpers/chromium.js';
describe('browser console: speaker.merged at session end', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    // As in test/server/voice-stream.test.ts: a strict online threshold splits one voice into an id per
    // utterance, and the end-of-session merge joins them again.
    t = await startVoiceTestApp(FRAGMENT_THEN_MERGE_ENV);
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('one voice split online is merged at session end: the page relabels the turns and says so', { timeout: 900_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const speakersOnPage = async (): Promise<Set<string>> =>
      new Set(await page.locator('li.turn.final').evaluateAll((els) => els.map((e) => e.getAttribute('data-speaker') ?? '')));
    try {
      await page.goto(`${t.httpUrl}/console/`); // no API keys configured: no key asked
      await page.locator('#start').click();
      await page.locator('li.turn.final').nth(2).waitFor({ timeout: SLOW });
      const online = await speakersOnPage();
      assert.ok(online.size >= 2, `the strict threshold split the voice (${online.size} ids)`);
      await page.locator('#stop').click();
      await page.locator('.log li', { hasText: 'session ended' }).waitFor({ timeout: SLOW });
      const merges = await page.locator('.log li[data-from]').evaluateAll((els) =>
        els.map((e) => ({ from: e.getAttribute('data-from') ?? '', into: e.getAttribute('data-into') ?? '' })));
      assert.ok(merges.length >= 1, 'speaker.merged is shown');
      const after = await speakersOnPage();
      const into = new Map(merges.map((m) => [m.from, m.into]));
      const survivor = (id: string): string => (into.has(id) ? survivor(into.get(id)!) : id);
      for (const m of merges) {
        assert.ok(!after.has(m.from), `no turn is left with the merged-away id ${m.from}`);
        assert.ok(after.has(survivor(m.into)), `its turns now show ${survivor(m.into)}`);
      }
      assert.equal(await page.locator('.speaker-chip').count(), after.size, 'one chip per remaining speaker');
    } catch (err) {
      console.error(`page at failure:\n${(await page.locator('main').innerText().catch(() => '(no page)')).slice(0, 4000)}`);
      throw err;
    }
  });
});
