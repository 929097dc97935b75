/**
 * The Graph tab used to open on the console's own live session before that session existed: a 404 "no
 * session console-…" and an empty graph. It now opens on everyone until the console's session has started, with the
 * session box empty (choosing "session" with no id asks nothing and says how to find one), the sessions of the newest
 * turns offered in the box, and a session id that does not exist (yet) reads as empty, not as an error. Skipped only when
 * /usr/bin/chromium is missing. Also: what is typed in the session box survives a listing that arrives before the box
 * is left (a render then used to put the old id back, so the change never came).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Route } from 'playwright-core';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchWithMicrophone } from '../helpers/chromium.js';

const T = 'default';
const AT = '2026-12-01T10:00:00.000Z';

describe('browser console: the Graph tab before a live session', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;
  let ana = '';
  let ben = '';

  before(async () => {
    t = await startTestApp(); // no API keys configured: no key asked
    ana = (await t.app.stores.graph.createParticipant(T, { name: 'Ana' })).id;
    ben = (await t.app.stores.graph.createParticipant(T, { name: 'Ben' })).id;
    await t.app.stores.graph.openSession(T, 'earlier-call', AT);
    await t.app.stores.graph.addUtterances(T, [0, 1, 2].map((i) => ({
      sessionId: 'earlier-call', speakerId: ana, addresseeIds: [ben], text: `turn ${i}`, startMs: null, endMs: null,
      time: new Date(Date.parse(AT) + i * 1000).toISOString(), confidence: null, audioRef: null,
    })));
    // A later call, Ben to Ana: the newest session, and an edge that only "everyone" shows besides earlier-call's.
    await t.app.stores.graph.openSession(T, 'later-call', AT);
    await t.app.stores.graph.addUtterances(T, [0, 1].map((i) => ({
      sessionId: 'later-call', speakerId: ben, addresseeIds: [ana], text: `reply ${i}`, startMs: null, endMs: null,
      time: new Date(Date.parse(AT) + 60_000 + i * 1000).toISOString(), confidence: null, audioRef: null,
    })));
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('opens on everyone, without an error; an unknown session id shows an empty graph and says so', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const asked: string[] = [];
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/v1/interactions')) asked.push(`${r.status()} ${r.url()}`);
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"]`).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('radio', { name: 'everyone', exact: true }).isChecked(), true, 'the view opens on everyone');
    assert.equal(await page.getByLabel('session id').inputValue(), '', 'the session box starts empty, not on the console\'s own session');
    assert.equal(await page.locator('.graph [role="alert"]').count(), 0, 'no error shown');
    assert.deepEqual(failed, [], 'no request failed on load');
    assert.deepEqual(asked.filter((a) => a.includes('session_id=')), [], 'no listing of one session on load');

    // The box offers the sessions of the newest turns, newest first.
    const options = page.locator('datalist#recent-sessions option');
    await options.nth(1).waitFor({ state: 'attached', timeout: 60_000 });
    assert.deepEqual(await options.evaluateAll((els) => els.map((e) => e.getAttribute('value'))), ['later-call', 'earlier-call']);
    assert.equal(await page.getByLabel('session id').getAttribute('list'), 'recent-sessions');

    // "session" with no id chosen: empty, a hint saying how to find one, and no request.
    const before = asked.length;
    await page.getByRole('radio', { name: 'session', exact: true }).check();
    await page.locator('.graph .pick-session').waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.graph .pick-session').innerText(), /session id/);
    assert.equal(await page.locator('.graph table.edges tbody tr').count(), 0);
    assert.equal(await page.locator('.graph [role="alert"]').count(), 0, 'no error shown');
    assert.deepEqual(asked.slice(before), [], 'nothing asked without a session id');

    // A session that does not exist (yet): empty, said so, no error.
    await page.getByLabel('session id').fill('not-started-yet');
    await page.getByLabel('session id').press('Tab');
    await page.locator('.graph .no-session').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('radio', { name: 'session', exact: true }).isChecked(), true, 'typing a session id selects it');
    assert.equal(await page.locator('.graph [role="alert"]').count(), 0, 'no error shown');
    assert.equal(await page.locator('.graph table.edges tbody tr').count(), 0);
    assert.equal(await page.locator('.graph .people li').count(), 0);

    // An existing one shows its turns again.
    await page.getByLabel('session id').fill('earlier-call');
    await page.getByLabel('session id').press('Tab');
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"] td:nth-child(3)`, { hasText: /^3$/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.graph .no-session').count(), 0);
    assert.equal(await page.locator(`.graph tr[data-edge="${ben}->${ana}"]`).count(), 0, 'only that session\'s turns');
  });

  test('a listing that arrives between typing a session id and leaving the box keeps what was typed', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();

    // Each listing of turns is held until released: the view's first ones (everyone's, the recent sessions).
    let release = (): void => {};
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held = (): void => {};
    const heldOne = new Promise<void>((resolve) => { held = resolve; });
    await page.route((url) => url.pathname === '/v1/interactions', async (route: Route) => {
      held();
      await released;
      await route.continue();
    });
    await page.goto(`${t.httpUrl}/console/#graph`);
    await heldOne;
    await page.getByLabel('session id').fill('earlier-call');
    release(); // the listings arrive while the box still has focus: the view renders everyone's graph
    await page.locator(`.graph tr[data-edge="${ben}->${ana}"]`).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByLabel('session id').inputValue(), 'earlier-call', 'the render kept what was typed');

    await page.getByLabel('session id').press('Tab');
    await page.locator(`.graph tr[data-edge="${ben}->${ana}"]`).waitFor({ state: 'detached', timeout: 60_000 });
    assert.equal(await page.getByRole('radio', { name: 'session', exact: true }).isChecked(), true, 'the typed session applied');
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"] td:nth-child(3)`, { hasText: /^3$/ }).waitFor({ timeout: 60_000 });
  });
});
