/**
 * The Graph tab used to open on the console's own live session before that session existed: a 404 "no
 * session console-…" and an empty graph. It now opens on everyone until the console's session has started,
 * and a session id that does not exist (yet) reads as empty, not as an error. Skipped only when
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
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('opens on everyone, without an error; an unknown session id shows an empty graph and says so', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const asked: string[] = [];
    page.on('response', (r) => { if (r.url().includes('/v1/interactions')) asked.push(`${r.status()} ${r.url()}`); });
    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"]`).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByRole('radio', { name: 'everyone', exact: true }).isChecked(), true, 'the view opens on everyone');
    assert.equal(await page.locator('.graph [role="alert"]').count(), 0, 'no error shown');
    assert.deepEqual(asked.filter((a) => !a.startsWith('200 ')), [], 'no listing of a session that does not exist');

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
  });

  test('a listing that arrives between typing a session id and leaving the box keeps what was typed', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"]`).waitFor({ timeout: 60_000 });

    // From here each listing of turns is held until released; the first one held is the console's own session's.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held = (): void => {};
    const heldOne = new Promise<void>((resolve) => { held = resolve; });
    await page.route((url) => url.pathname === '/v1/interactions', async (route: Route) => {
      held();
      await released;
      await route.continue();
    });
    await page.getByRole('radio', { name: 'session', exact: true }).check();
    await heldOne;
    await page.getByLabel('session id').fill('earlier-call');
    release(); // the listing arrives while the box still has focus: the view renders (the session has no turns yet)
    await page.locator('.graph .no-session').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByLabel('session id').inputValue(), 'earlier-call', 'the render kept what was typed');

    await page.getByLabel('session id').press('Tab');
    await page.locator(`.graph tr[data-edge="${ana}->${ben}"] td:nth-child(3)`, { hasText: /^3$/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.graph .no-session').count(), 0, 'the typed session applied');
  });
});
