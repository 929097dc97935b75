/**
 * The browser console in a real browser: Debian's chromium driven by playwright-core, headless, with a fake
 * microphone playing a two-speaker flite recording into the Live view, against a real Parley server with an
 * API key. It checks the transcript turns, the two speakers, renaming, the graph, facts with history and
 * their source audio, the question box, erasure, and that nothing loads from outside the machine (CSP).
 * It saves the screenshots shown in the README (docs/console-*.png).
 * Skipped only when /usr/bin/chromium is missing (scripts/setup.sh installs it; CI runs it).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLE_CSP, CONSOLE_DIR } from '../../server/routes/console.js';
import { startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { chromiumSkip, launchWithMicrophone, SLOW } from '../helpers/chromium.js';

const KEY = 'console-test-key';
const TENANT = 'console';
/** A fact from the call (not Ana's imported history): where someone lives or works. */
const SPOKEN_FACT = /^(?!Ana\b).*(lives in|works at)/i;

/** The conversation the fake microphone plays (looped by chromium): kal and slt taking turns. */
const LINES: [voice: string, text: string][] = [
  ['kal', 'hello how are you today'],
  ['slt', 'i am fine thank you'],
  ['kal', 'i live in paris'],
  ['slt', 'i work at the hospital'],
];

/** Synthesise LINES with flite into one 16 kHz mono 16-bit WAV, 1.6 s of silence after each turn. */
function makeConversation(dir: string): string {
  const rate = '16000';
  const parts: string[] = [];
  const silence = (name: string, seconds: number): string => {
    const file = path.join(dir, name);
    execFileSync('sox', ['-n', '-r', rate, '-c', '1', '-b', '16', file, 'trim', '0', String(seconds)]);
    return file;
  };
  parts.push(silence('lead.wav', 1.0));
  const gap = silence('gap.wav', 1.6);
  LINES.forEach(([voice, text], i) => {
    const raw = path.join(dir, `raw${i}.wav`);
    const trimmed = path.join(dir, `u${i}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', raw]);
    execFileSync('sox', [raw, '-r', rate, '-c', '1', '-b', '16', trimmed, 'silence', '1', '0.01', '0.3%', 'reverse', 'silence', '1', '0.01', '0.3%', 'reverse']);
    parts.push(trimmed, gap);
  });
  const out = path.join(dir, 'conversation.wav');
  execFileSync('sox', [...parts, out]);
  return out;
}

const shot = (page: Page, name: string): Promise<Buffer> =>
  page.screenshot({ path: path.join(repoRoot(), 'docs', `console-${name}.png`) });

describe('browser console (chromium, fake microphone)', { skip: chromiumSkip() }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const tmp = tempDir('parley-console-');
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

  before(async () => {
    assert.ok(existsSync(path.join(CONSOLE_DIR, 'index.html')), `no bundled console in ${CONSOLE_DIR}: run \`npm run build\``);
    const wav = makeConversation(tmp.dir);
    t = await startVoiceTestApp({ PARLEY_API_KEYS: `${KEY}:${TENANT}` });
    // History to show: Ana lived in Porto, then moved to Lisbon (the second replaces the first).
    for (const text of ['I live in Porto.', 'I moved to Lisbon last month.']) {
      const res = await fetch(`${t.httpUrl}/v1/sessions/history-1/utterances`, {
        method: 'POST', headers: auth, body: JSON.stringify({ utterances: [{ speaker: 'Ana', text }] }),
      });
      assert.equal(res.status, 201);
      await drainConsolidation(t.app.stores.queue, SLOW);
    }
    browser = await launchWithMicrophone(wav);
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    mkdirSync(path.join(repoRoot(), 'docs'), { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    tmp.remove();
  });

  test('the page is served by Parley with a same-origin CSP, without an API key', async () => {
    const res = await fetch(`${t.httpUrl}/console/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), CONSOLE_CSP);
    assert.match(await res.text(), /<div id="app">/);
    const api = await fetch(`${t.httpUrl}/v1/participants`);
    assert.equal(api.status, 401, 'the API itself still needs the key');
  });

  test('live call, speakers, rename, graph, memory with history and audio, question, erasure', { timeout: 900_000 }, async () => {
    try {
      await walkThrough();
    } catch (err) {
      // What the page showed, for the failure report.
      const shown = await page.locator('main').innerText().catch(() => '(no page)');
      console.error(`page at failure:\n${shown.slice(0, 4000)}\nconsole errors: ${consoleErrors.join(' | ')}`);
      await page.screenshot({ path: path.join(tmp.dir, '..', 'parley-console-failure.png') }).catch(() => undefined);
      throw err;
    }
  });

  async function walkThrough(): Promise<void> {
    await page.goto(`${t.httpUrl}/console`);
    // The key is asked for; a wrong one is refused on the page, the right one kept in session storage.
    await page.getByLabel('API key').fill('not-the-key');
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.locator('#start').waitFor();
    assert.equal(await page.evaluate('sessionStorage.getItem("parley.api_key")'), KEY);

    // Live: the fake microphone plays the conversation.
    await page.locator('#start').click();
    await page.locator('.status[data-status="live"]').waitFor({ timeout: 30_000 });
    await page.locator('.vad[data-vad="speech"], .vad[data-vad="silence"]').first().waitFor({ timeout: SLOW });
    await page.locator('li.turn.final').nth(3).waitFor({ timeout: SLOW });
    const finals = page.locator('li.turn.final');
    const speakerIds = await finals.evaluateAll((els) => els.map((e) => e.getAttribute('data-speaker') ?? ''));
    const texts = await finals.locator('.turn-text').allTextContents();
    const distinct = [...new Set(speakerIds)];
    assert.ok(distinct.length >= 2, `two speakers expected, got ${distinct.length}: ${texts.join(' | ')}`);
    assert.notEqual(speakerIds[0], speakerIds[1], `kal then slt: ${texts.join(' | ')}`);
    assert.ok(await page.locator('.speaker-chip').count() >= 2);
    assert.ok(await page.locator('li.turn.final .to').count() >= 1, 'addressees are shown');
    const partials = await finals.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-partials'))));
    assert.ok(partials.some((n) => n > 0), `partial transcripts were shown before the finals: ${partials.join(',')}`);
    assert.ok(texts.some((x) => /paris|hospital|thank/.test(x)), `recognised speech: ${texts.join(' | ')}`);
    // Each finished turn shows its memory.context with ready_at_ms.
    const context = page.locator('li.turn.final .context summary').last();
    await context.waitFor({ timeout: SLOW });
    assert.match(await context.textContent() ?? '', /memory\.context: \d+ item\(s\), ready_at_ms -?\d+/);
    await context.click();
    await shot(page, 'live');

    // Rename the first speaker from the page (PATCH /v1/participants/{id}).
    const kal = speakerIds[0]!;
    const chip = page.locator(`.speaker-chip[data-speaker="${kal}"]`);
    await chip.getByRole('button', { name: 'rename' }).click();
    await chip.getByLabel('new name').fill('Kal');
    await chip.getByRole('button', { name: 'Save' }).click();
    await chip.locator('.speaker-name', { hasText: 'Kal' }).waitFor();
    const renamed = await (await fetch(`${t.httpUrl}/v1/participants/${kal}`, { headers: auth })).json() as { name: string };
    assert.equal(renamed.name, 'Kal');
    assert.ok(await page.locator(`li.turn[data-speaker="${kal}"] strong`, { hasText: 'Kal' }).count() >= 1, 'turns show the new name');

    // Stop: session.end stores the open turn and waits for consolidation before session.ended.
    await page.locator('#stop').click();
    await page.locator('.log li', { hasText: 'session ended' }).waitFor({ timeout: SLOW });

    // Graph of this session: both speakers, an addressed edge, a click shows the person.
    await page.goto(`${t.httpUrl}/console/#graph`);
    await page.locator('.cy canvas').first().waitFor({ timeout: 30_000 });
    await page.locator('table.edges tbody tr').first().waitFor({ timeout: 30_000 });
    for (const id of distinct.slice(0, 2)) await page.locator(`.graph .people li[data-person="${id}"]`).waitFor();
    await page.locator(`.graph .people li[data-person="${kal}"] button`).click();
    const panel = page.locator(`[data-person-panel="${kal}"]`);
    await panel.getByRole('heading', { name: 'Kal' }).waitFor();
    await panel.getByRole('heading', { name: 'Persona' }).waitFor();
    await shot(page, 'graph');
    // Everyone: Ana (who spoke only in the imported history) joins the graph.
    await page.getByLabel('everyone').check();
    await page.locator('.graph .people li', { hasText: 'Ana' }).waitFor({ timeout: 30_000 });

    // Memory: a fact from the speech, history (Porto replaced by Lisbon), the source utterance's audio.
    await page.goto(`${t.httpUrl}/console/#memory`);
    await page.locator('.fact.current').first().waitFor({ timeout: 30_000 });
    const factTexts = await page.locator('.fact.current .fact-text').allTextContents();
    assert.ok(factTexts.some((f) => SPOKEN_FACT.test(f)), `a fact from the call: ${factTexts.join(' | ')}`);
    const replaced = page.locator('.fact.closed', { hasText: /Porto/i });
    await replaced.waitFor();
    assert.match(await replaced.locator('.replaced').textContent() ?? '', /replaced by .*Lisbon/i);
    const spoken = page.locator('.fact.current', { has: page.locator('.fact-text', { hasText: SPOKEN_FACT }) }).first();
    await spoken.getByRole('button', { name: 'source' }).click();
    await spoken.locator('.source').first().waitFor();
    await spoken.getByRole('button', { name: /audio/ }).first().click();
    const audio = spoken.locator('audio');
    await audio.waitFor();
    assert.match(await audio.getAttribute('src') ?? '', /^blob:/, 'the span is fetched with the key and played from a blob');
    // Search and the question box.
    await page.getByLabel('search memories').fill('Lisbon');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('.fact.current', { hasText: /Lisbon/ }).waitFor();
    await page.getByLabel('question').fill('where does Ana live?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator('.evidence li', { hasText: /Lisbon/ }).first().waitFor({ timeout: 60_000 });
    await page.getByLabel('search memories').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('.fact.current', { has: page.locator('.fact-text', { hasText: SPOKEN_FACT }) }).first().waitFor();
    await shot(page, 'memory');

    // Erasure, with a confirmation: the person leaves the page.
    const row = page.locator(`.memory .people li[data-person="${kal}"]`);
    await row.getByRole('button', { name: 'Erase…' }).click();
    await row.getByRole('alertdialog').waitFor();
    await row.getByRole('button', { name: 'Yes, erase' }).click();
    await row.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await page.locator('.memory .people li', { hasText: 'Kal' }).count(), 0);
    assert.equal(await page.locator('select[aria-label="person"] option', { hasText: 'Kal' }).count(), 0);
    assert.equal((await fetch(`${t.httpUrl}/v1/participants/${kal}`, { headers: auth })).status, 404);
    await page.locator('header nav a', { hasText: 'Graph' }).click();
    await page.locator('table.edges').waitFor();
    await page.locator(`.graph .people li[data-person="${kal}"]`).waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('header nav a', { hasText: 'Live' }).click();
    assert.equal(await page.locator(`li.turn[data-speaker="${kal}"]`).count(), 0, 'the erased speaker\'s turns leave the live view');
    assert.equal(await page.locator('li.turn .to', { hasText: 'Kal' }).count(), 0, 'nor is the erased person named as an addressee');

    // Nothing came from outside the machine, and the CSP refused nothing the page needed.
    const origin = new URL(t.httpUrl).origin;
    const outside = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'));
    assert.deepEqual(outside, [], 'every request goes to Parley itself');
    assert.deepEqual(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e)), [], 'no CSP violation');
  }
});
