/**
 * The console's first load on a server that needs an API key: it used to ask `/v1/participants` before any key was
 * entered, and the browser console showed a 401. It now asks the console's own open file (`/console/auth.json`) and
 * shows the key form without calling the API; once a key is kept, a reload goes straight in. Skipped only when
 * /usr/bin/chromium is missing.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchWithMicrophone } from '../helpers/chromium.js';

const KEY = 'console-first-load-key';

/** Every response the page gets, as `status path`. */
function responses(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (r) => seen.push(`${r.status()} ${new URL(r.url()).pathname}`));
  return seen;
}

describe('browser console: the first load asks for the key before any API call', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;

  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${KEY}:first-load` });
    browser = await launchWithMicrophone(path.join(repoRoot(), 'test', 'fixtures', 'audio', 'awb.wav'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('no 401 on load: the key form comes first; with the key kept, a reload goes straight in', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    const seen = responses(page);
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.getByLabel('API key').waitFor({ timeout: 60_000 });
    assert.deepEqual(seen.filter((r) => r.startsWith('401 ')), [], 'no 401 on load');
    assert.deepEqual(seen.filter((r) => r.includes(' /v1/')), [], 'no API request before a key is entered');
    assert.deepEqual(errors, [], 'nothing in the browser console');

    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.locator('.graph .toolbar').waitFor({ timeout: 60_000 });
    assert.ok(seen.includes('200 /v1/participants'), `the API answered with the key: ${seen.join(', ')}`);

    seen.length = 0;
    await page.reload();
    await page.locator('.graph .toolbar').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByLabel('API key').count(), 0, 'the kept key is used: no form');
    assert.deepEqual(seen.filter((r) => !/^(200|304) /.test(r)), [], 'nothing refused or missing after the reload');
    assert.deepEqual(errors, [], 'nothing in the browser console');
  });
});
