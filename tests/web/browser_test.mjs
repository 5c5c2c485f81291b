// Browser test of the web edition (issue 14), run by tests/web/browser_test.sh:
//   1. RC-T3/b2 in zh and en in headless Chromium (SwiftShader WebGL 2): wait for the first frame,
//      press PageDown and →, read the app's scene dump (bw_scene_dump: the JSON of --dump-scene) and
//      compare it with the desktop's --dump-scene for the same step, position, window and font size.
//   2. A bad scenario through the file input: the error line appears, the previous scenario stays.
// Usage: node browser_test.mjs URL DESKTOP_APP OUT_DIR   (puppeteer-core found through NODE_PATH)
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const puppeteer = require('puppeteer-core');
const [url, desktop, out] = process.argv.slice(2);
const W = 1280, H = 800, FONT = 22;
// Box coordinates: the desktop bakes glyphs with FreeType, the browser with stb_truetype; text widths
// (and so label boxes) may differ by a fraction of a pixel. Everything else must be equal.
const PX_TOLERANCE = 1.0;
// Fields that name the machine, not the view.
const ENVIRONMENT = new Set(['data_root', 'data_root_rule', 'content_scale', 'open_path']);

let failures = 0;
function fail(msg) { console.log('FAIL ' + msg); failures++; }

function compare(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    const tol = /\/(box|points|em_px|px)\b/.test(where) ? PX_TOLERANCE : 0;
    if (Number.isNaN(a) || Number.isNaN(b) || Math.abs(a - b) > tol) fail(`${where}: web ${a} vs desktop ${b}`);
    return;
  }
  if (Array.isArray(a) !== Array.isArray(b) || typeof a !== typeof b || (a === null) !== (b === null)) {
    fail(`${where}: web ${JSON.stringify(a)} vs desktop ${JSON.stringify(b)}`);
    return;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) fail(`${where}: web has ${a.length} entries, desktop ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) compare(a[i], b[i], `${where}/${i}`);
    return;
  }
  if (a && typeof a === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (ENVIRONMENT.has(k)) continue;
      if (!(k in a) || !(k in b)) fail(`${where}/${k}: only in ${k in a ? 'web' : 'desktop'}`);
      else compare(a[k], b[k], `${where}/${k}`);
    }
    return;
  }
  if (a !== b) fail(`${where}: web ${JSON.stringify(a)} vs desktop ${JSON.stringify(b)}`);
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--enable-webgl',
         '--ignore-gpu-blocklist', `--window-size=${W},${H}`],
});

async function open(query) {
  const page = await browser.newPage();
  await page.setViewport({ width: W, height: H });
  const log = [];
  page.on('console', (m) => log.push(m.text()));
  page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
  const t0 = Date.now();
  await page.goto(`${url}?${query}&width=${W}&height=${H}&font_px=${FONT}`);
  await page.waitForFunction(() => window.Module && window.Module.firstFrameMs > 0, { timeout: 60000, polling: 100 })
    .catch((e) => { throw new Error(`no first frame: ${e.message}\n${log.join('\n')}`); });
  console.log(`  first frame after ${Date.now() - t0} ms (page-relative ${await page.evaluate(() => Math.round(Module.firstFrameMs))} ms)`);
  return { page, log };
}
async function frames(page, n) {
  // n animation frames, then a quiet moment (the arrow animation lasts 0.3 s).
  await page.evaluate((k) => new Promise((r) => { let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);
  await new Promise((r) => setTimeout(r, 600));
  await page.evaluate((k) => new Promise((r) => { let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);
}

for (const lang of ['zh', 'en']) {
  console.log(`RC-T3/b2 ${lang}:`);
  const { page, log } = await open(`lesson=RC-T3&step=b2&lang=${lang}`);
  await frames(page, 4);
  const before = await page.evaluate(() => window.bw.dump());
  if (before.step !== 'RC-T3/b2') fail(`${lang}: opened at ${before.step}, not RC-T3/b2`);
  await page.focus('#canvas');
  await page.keyboard.press('PageDown');
  await frames(page, 4);
  await page.keyboard.press('ArrowRight');
  await frames(page, 6);
  const web = await page.evaluate(() => window.bw.dump());
  await page.screenshot({ path: path.join(out, `web-${lang}.png`) });
  fs.writeFileSync(path.join(out, `web-${lang}.json`), JSON.stringify(web, null, 2));
  console.log(`  after PageDown, →: step ${web.step}, event ${web.event} (#${web.event_index}), revealed ${web.revealed}`);
  if (web.step === before.step && web.event_index === before.event_index && web.revealed === before.revealed)
    fail(`${lang}: PageDown and → changed nothing`);
  // The desktop at the same step and position, same window and font size.
  const dpng = path.join(out, `desktop-${lang}.png`), djson = path.join(out, `desktop-${lang}.json`);
  execFileSync('xvfb-run', ['-a', '-s', `-screen 0 ${W}x${H}x24`, desktop, '--no-settings', '--step', web.step,
    '--position', web.event, '--lang', lang, '--width', String(W), '--height', String(H),
    '--font-px', String(FONT), '--screenshot', dpng, '--dump-scene', djson], { stdio: 'inherit' });
  const desk = JSON.parse(fs.readFileSync(djson, 'utf8'));
  if (web.revealed !== desk.revealed) console.log(`  note: revealed web ${web.revealed}, desktop ${desk.revealed} (not settable from the desktop's command line)`);
  const before_fail = failures;
  compare({ ...web, revealed: desk.revealed }, desk, lang);
  console.log(`  dump vs desktop: ${failures === before_fail ? 'equal' : 'DIFFERENT'} (${web.rects.length} rects, ${web.labels.length} labels, ${web.texts.length} texts; boxes within ${PX_TOLERANCE} px)`);
  if (log.some((l) => /abort|exception|pageerror/i.test(l))) fail(`${lang}: console: ${log.filter((l) => /abort|exception|pageerror/i.test(l)).join(' | ')}`);
  await page.close();
}

// A bad scenario through the file input: the error line appears and the previous scenario stays.
{
  console.log('bad scenario through the file input:');
  const { page } = await open('lesson=RC-T3&step=b2&lang=en');
  await frames(page, 4);
  const before = await page.evaluate(() => window.bw.dump());
  const bad = path.join(out, 'bad_scenario.json');
  fs.writeFileSync(bad, '{"schema_version": 1, "kind": "single_query", "weights": [1, 2], "values": [1]}\n');
  const input = await page.$('#file');
  await input.uploadFile(bad);
  await page.evaluate(() => document.getElementById('file').dispatchEvent(new Event('change')));
  await frames(page, 6);
  const after = await page.evaluate(() => window.bw.dump());
  console.log(`  error line: ${JSON.stringify(after.error)}`);
  if (!after.error || !after.error.includes('bad_scenario.json')) fail(`bad file: the error line does not name the file: ${JSON.stringify(after.error)}`);
  if (after.step !== before.step || after.event_index !== before.event_index) fail(`bad file: the previous scenario did not stay (${before.step} → ${after.step})`);
  if (!after.texts.some((t) => t.includes(after.error.slice(0, 20)))) fail('bad file: the error line is not on screen');
  await page.screenshot({ path: path.join(out, 'web-bad-file.png') });
  await page.close();
}
// The projector palette, for looking at.
{
  const { page } = await open('lesson=RC-T3&step=b2&lang=zh&projector=1');
  await frames(page, 4);
  const d = await page.evaluate(() => window.bw.dump());
  if (!d.projector) fail('projector=1 did not switch the palette');
  await page.screenshot({ path: path.join(out, 'web-projector.png') });
  await page.close();
}
await browser.close();
console.log(failures ? `browser test: ${failures} failure(s)` : 'browser test: passed');
process.exit(failures ? 1 : 0);
