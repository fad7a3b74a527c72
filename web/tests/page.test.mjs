// Drives `bao serve`'s page in Debian's chromium: loads it, plays a legal move by clicking,
// waits for the player's answer, tries an illegal click, steps through the game, reloads,
// loads the game's record back, asks for an analysis and takes a screenshot.
//
// BAO_URL: the page; BAO_SCREENSHOT: where the PNG goes; CHROMIUM: the browser (/usr/bin/chromium).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.env.BAO_URL || 'http://127.0.0.1:8080/';
const shot = process.env.BAO_SCREENSHOT || 'bao-page.png';
const profile = mkdtempSync(join(tmpdir(), 'bao-chromium-'));
let passed = 0;
let failed = 0;

function check(what, ok, detail = '') {
  if (ok) { passed += 1; console.log(`ok - ${what}`); } else { failed += 1; console.log(`not ok - ${what} ${detail}`); }
}

const counts = (page) => page.$$eval('[data-pit]', (els) => Object.fromEntries(els.map((e) => [e.dataset.pit, e.textContent.trim()])));

const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 860 },
});
try {
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('[data-pit="A1"]');

  const names = await page.$$eval('[data-pit]', (els) => els.map((e) => e.dataset.pit).sort());
  const expected = ['A', 'B', 'a', 'b'].flatMap((r) => [1, 2, 3, 4, 5, 6, 7, 8].map((n) => r + n)).sort();
  check('32 pits named A1..B8, a1..b8', JSON.stringify(names) === JSON.stringify(expected), names.join(','));
  const start = await counts(page);
  check('every pit shows its seed count', Object.values(start).every((t) => /^\d+$/.test(t)), JSON.stringify(start));

  // A new game against the server's player, quick moves, fast steps.
  await page.fill('#time', '300');
  await page.selectOption('#speed', '80');
  await page.fill('#south', 'human');
  await page.click('#new');
  // The new game's answer (the start looks the same as before it, so wait for its message).
  await page.waitForFunction(() => /^new game of/.test(document.querySelector('#message').textContent));
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 0 && document.querySelector('.pit.legal'));
  const legal = await page.$$eval('.pit.legal', (els) => els.map((e) => e.dataset.pit));
  check('legal pits are highlighted', legal.length > 0 && legal.every((n) => /^[AB][1-8]$/.test(n)), legal.join(','));

  // An illegal click is explained.
  await page.click('[data-pit="a1"]');
  await page.waitForSelector('#message.error');
  const why = await page.textContent('#message');
  check('an illegal click says why', /North's pit/.test(why), why);

  // A legal move by clicking (and a direction if the pit has two).
  await page.click(`[data-pit="${legal[0]}"]`);
  if (await page.$('#choices button')) await page.click('#choices button');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2, null, { timeout: 30000 });
  const moves = await page.$$eval('#moves li', (els) => els.map((e) => e.textContent));
  check('the move was played and the player answered', moves.length === 2 && /^1\. [AB][1-8]/.test(moves[0]) && /^2\. [ab][1-8]/.test(moves[1]), moves.join(' | '));
  const afterTwo = await counts(page);
  check('the board changed', JSON.stringify(afterTwo) !== JSON.stringify(start));

  // Stepping back and forth.
  await page.click('#back');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 1 / 2');
  const afterOne = await counts(page);
  await page.click('#first');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 0 / 2');
  check('the first ply shows the start', JSON.stringify(await counts(page)) === JSON.stringify(start));
  await page.click('#forward');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 1 / 2');
  check('one ply forward shows ply 1 again', JSON.stringify(await counts(page)) === JSON.stringify(afterOne));
  await page.click('#last');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 2 / 2');
  check('the last ply shows the game', JSON.stringify(await counts(page)) === JSON.stringify(afterTwo));

  // A reload loses nothing: the game lives on the server.
  await page.reload();
  await page.waitForSelector('[data-pit="A1"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
  check('a reload keeps the game', JSON.stringify(await counts(page)) === JSON.stringify(afterTwo));

  // The game's record loaded back and stepped through.
  await page.click('#pause');
  const record = await page.textContent('#record');
  await page.click('summary:has-text("Load a position")');
  await page.fill('#load-text', record);
  await page.click('#load');
  await page.waitForFunction(() => /^loaded: 2 moves/.test(document.querySelector('#message').textContent));
  await page.click('#back');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 1 / 2');
  check('a loaded record steps back', JSON.stringify(await counts(page)) === JSON.stringify(afterOne));
  await page.click('#forward');
  await page.waitForFunction(() => document.querySelector('#ply').textContent === 'ply 2 / 2');
  check('a loaded record steps forward', JSON.stringify(await counts(page)) === JSON.stringify(afterTwo));

  // Analysis of the position.
  await page.click('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#analysis tbody tr td').length >= 4);
  const top = await page.$$eval('#analysis tbody tr', (rows) => rows.map((r) => r.textContent));
  check('the analysis lists moves', top.length >= 1 && /[AB][1-8][<>]/.test(top[0]), top.join(' | '));

  await page.screenshot({ path: shot, fullPage: true });
  check('no script errors on the page', errors.length === 0, errors.join('; '));
} catch (e) {
  failed += 1;
  console.log(`not ok - ${e.stack || e}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
