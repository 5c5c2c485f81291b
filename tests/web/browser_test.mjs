// Browser test of the web edition (issue 14), run by tests/web/browser_test.sh:
//   1. RC-T3/b2 in zh and en in headless Chromium (SwiftShader WebGL 2): wait for the first frame,
//      press PageDown (reveals b2's answer), → (one trace event) and PageDown (b2's next text pages, then
//      b3), reading the
//      app's scene dump (bw_scene_dump: the JSON of --dump-scene) after each; after → and after the
//      second PageDown the dump is compared with the desktop's --dump-scene for the same step,
//      position, reveal, window and font size.
//   2. A bad scenario through the file input: the error line (file, JSON path, reason) is the
//      desktop's for the same file, the banner is on screen, and the previous scenario stays.
//   3. The projector palette (projector=1), screenshot for looking at.
//   4. Links: a lesson, step or position that does not exist; a lesson bundle by ?src= (and a missing one).
// Usage: node browser_test.mjs URL DESKTOP_APP OUT_DIR   (puppeteer-core found through NODE_PATH)
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const puppeteer = require('puppeteer-core');
const [url, desktop, out] = process.argv.slice(2);
const W = 1280, H = 800, FONT = 22;
// Every field must be equal — numbers exactly (both sides print the same floats) — except:
//  - data_root, data_root_rule: where the data comes from (the page's file system /data, set by
//    index.html; the desktop's source tree), not what is shown;
//  - the x extent of a text label's box: it is the text's measured width, and the desktop bakes glyphs
//    with FreeType (hinted, advances rounded) while the browser has only ImGui's stb_truetype (no
//    FreeType for wasm here). The label's text, size, y extent and anchor (left edge, centre or right
//    edge) must still be equal; the widths are reported; its em within 3 % (the baked glyph's
//    advance, which FreeType rounds);
//  - the panels' drawn lines (drawn_texts): where a line breaks follows the same measured widths, so
//    each region's words are compared in order (the step text's page may end a line sooner on one
//    side), and the sizes drawn within 3 %.
const ENVIRONMENT = new Set(['data_root', 'data_root_rule']);
const ANCHOR_EPS = 1e-3;  // px: a centre is (x0 + x1) / 2 in float on both sides
let widthRatio = [Infinity, 0];

let failures = 0;
function fail(msg) { console.log('FAIL ' + msg); failures++; }

const EM_REL = 0.03;  // the em is a full-width glyph's advance in the baked font: FreeType rounds it, stb does not
function compareLabel(a, b, where) {
  const { box: ab, em: ae, ...ar } = a, { box: bb, em: be, ...br } = b;
  compare(ar, br, where);
  if ((ae === undefined) !== (be === undefined) || (ae !== undefined && !(Math.abs(ae - be) <= EM_REL * be)))
    fail(`${where}/em: web ${ae} vs desktop ${be}`);
  compare([ab[1], ab[3]], [bb[1], bb[3]], `${where}/box[y0,y1]`);
  const near = (x, y) => Math.abs(x - y) <= ANCHOR_EPS;
  if (!near(ab[0], bb[0]) && !near(ab[2], bb[2]) && !near(ab[0] + ab[2], bb[0] + bb[2]))
    fail(`${where}/box: neither its left edge, centre nor right edge is the desktop's (web ${JSON.stringify(ab)} vs desktop ${JSON.stringify(bb)})`);
  const r = (ab[2] - ab[0]) / (bb[2] - bb[0]);
  widthRatio = [Math.min(widthRatio[0], r), Math.max(widthRatio[1], r)];
}

// The panels' drawn lines (drawn_texts): where a line breaks depends on the measured widths, which
// differ (FreeType and stb_truetype), so each region's words are compared in order, the breaks and
// spaces aside, and each line's em within 3 % of the desktop's size for the same text font.
function compareDrawnTexts(a, b, where) {
  const words = (list) => {
    const by = {};
    for (const t of list) if (t.role !== 'hint') by[t.region] = (by[t.region] || '') + t.text.replace(/\s+/g, '');
    return by;
  };
  const wa = words(a), wb = words(b);
  compare(Object.keys(wa).sort(), Object.keys(wb).sort(), `${where} (regions)`);
  for (const r of Object.keys(wa)) {
    if (!(r in wb) || r === 'error') continue;  // the error line names the file's folder: compared below
    // The step text's page ends where its lines break: one side may hold a line more.
    const same = r === 'text' ? wa[r].startsWith(wb[r]) || wb[r].startsWith(wa[r]) : wa[r] === wb[r];
    if (!same) fail(`${where} (${r}): web "${wa[r]}" vs desktop "${wb[r]}"`);
  }
  const ems = (list) => [...new Set(list.map((t) => Math.round(t.em * 10) / 10))].sort((x, y) => x - y);
  const ea = ems(a), eb = ems(b);
  if (ea.length !== eb.length || ea.some((e, i) => !(Math.abs(e - eb[i]) <= EM_REL * eb[i])))
    fail(`${where}: the sizes (em) drawn differ: web ${JSON.stringify(ea)} vs desktop ${JSON.stringify(eb)}`);
}

function compare(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b) || a !== b) fail(`${where}: web ${a} vs desktop ${b}`);
    return;
  }
  if (Array.isArray(a) !== Array.isArray(b) || typeof a !== typeof b || (a === null) !== (b === null)) {
    fail(`${where}: web ${JSON.stringify(a)} vs desktop ${JSON.stringify(b)}`);
    return;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) fail(`${where}: web has ${a.length} entries, desktop ${b.length}`);
    const label = /\/labels$/.test(where);
    for (let i = 0; i < Math.min(a.length, b.length); i++) (label ? compareLabel : compare)(a[i], b[i], `${where}/${i}`);
    return;
  }
  if (a && typeof a === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (ENVIRONMENT.has(k)) continue;
      if (k === 'drawn_texts' && Array.isArray(a[k]) && Array.isArray(b[k])) {
        compareDrawnTexts(a[k], b[k], `${where}/${k}`);
        continue;
      }
      // Where the step text's lines break depends on the measured widths (compareDrawnTexts): a line
      // more on one side can start one more page after the first (RC-T3/b2 en: 3 vs 2 pages at 1280×800).
      // The page shown is compared exactly.
      if (k === 'text_pages' && typeof a[k] === 'number' && typeof b[k] === 'number') {
        if (Math.abs(a[k] - b[k]) > 1) fail(`${where}/${k}: web ${a[k]} vs desktop ${b[k]}`);
        continue;
      }
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
  // A cold start on a loaded 2-core machine once took more than puppeteer's default 30 s to print its
  // endpoint (a clean-clone CI run, 2026-12-02); the test's own checks keep their limits.
  timeout: 120000,
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
  // n animation frames, then a quiet moment (the arrow animation lasts 0.3 s), then n more.
  await page.evaluate((k) => new Promise((r) => { let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);
  await new Promise((r) => setTimeout(r, 600));
  await page.evaluate((k) => new Promise((r) => { let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);
}
// Presses `key` and waits (10 s at most) until the dump satisfies `moved`; returns the dump.
async function press(page, key, moved, what) {
  const before = await page.evaluate(() => window.bw.dump());
  await page.keyboard.press(key);
  const t0 = Date.now();
  let d = before;
  while (Date.now() - t0 < 10000) {
    d = await page.evaluate(() => window.bw.dump());
    if (moved(d, before)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await frames(page, 4);  // settle (animation, ImGui's layout), then read the settled state
  d = await page.evaluate(() => window.bw.dump());
  console.log(`  ${key}: step ${d.step}, event ${d.event} (#${d.event_index}), revealed ${d.revealed}`);
  if (!moved(d, before)) fail(`${what}: after ${key} the app shows step ${d.step}, event ${d.event} (#${d.event_index}), revealed ${d.revealed}`);
  return d;
}
// The desktop's --dump-scene for the web's step, position and reveal, same window and font size,
// compared field by field with the web's dump.
function compareWithDesktop(web, lang, name) {
  const dpng = path.join(out, `desktop-${name}.png`), djson = path.join(out, `desktop-${name}.json`);
  fs.writeFileSync(path.join(out, `web-${name}.json`), JSON.stringify(web, null, 2));
  execFileSync('xvfb-run', ['-a', '-s', `-screen 0 ${W}x${H}x24`, desktop, '--no-settings', '--step', web.step,
    '--position', web.event, ...(web.revealed ? ['--reveal'] : []), '--lang', lang, '--width', String(W),
    '--height', String(H), '--font-px', String(FONT), '--screenshot', dpng, '--dump-scene', djson], { stdio: 'inherit' });
  const desk = JSON.parse(fs.readFileSync(djson, 'utf8'));
  const before_fail = failures;
  widthRatio = [Infinity, 0];
  compare(web, desk, name);
  console.log(`  dump vs desktop at ${web.step} ${web.event}${web.revealed ? ' revealed' : ''}: ` +
    `${failures === before_fail ? 'equal' : 'DIFFERENT'} (${web.rects.length} rects, ${web.arrows.length} arrows, ` +
    `${web.labels.length} labels, ${web.texts.length} texts; label widths web/desktop ` +
    `${widthRatio[0].toFixed(3)}–${widthRatio[1].toFixed(3)}, not compared)`);
}

// The keys do what they do on the desktop (tests/app/keyboard_test.sh): on RC-T3/b2, whose predict
// box is unanswered, the first PageDown reveals the answer and stays; → moves one trace event (the
// step follows the position: still b2); the next PageDown moves to the next lesson step, b3, at its
// own event, answer not revealed.
// Pixels of the error banner's background colour (top_bar.cpp: 255, 235, 238) in the top 160 rows.
const bannerPixels = async (page) => page.evaluate(async (png) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + png;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, img.width, Math.min(img.height, 160)).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] === 255 && px[i + 1] === 235 && px[i + 2] === 238) n++;
  return n;
}, await page.screenshot({ encoding: 'base64' }));

const lessonSteps = JSON.parse(fs.readFileSync(new URL('../../lessons/rc-t3.json', import.meta.url), 'utf8')).steps;
const b3 = lessonSteps[lessonSteps.findIndex((st) => st.id === 'RC-T3/b2') + 1];
for (const lang of process.env.BW_CLASS_ONLY ? [] : ['zh', 'en']) {
  console.log(`RC-T3/b2 ${lang}:`);
  const { page, log } = await open(`lesson=RC-T3&step=b2&lang=${lang}`);
  await frames(page, 4);
  const start = await page.evaluate(() => window.bw.dump());
  console.log(`  opened: step ${start.step}, event ${start.event} (#${start.event_index}), revealed ${start.revealed}, lang ${start.lang}`);
  if (start.step !== 'RC-T3/b2' || start.event !== 'update:2' || start.revealed || start.lang !== lang)
    fail(`${lang}: opened at ${start.step} ${start.event} (revealed ${start.revealed}, lang ${start.lang}), not RC-T3/b2 update:2`);
  await page.focus('#canvas');
  // Before the reveal PageDown shows each page the question spans, then reveals.
  const reveals = (d, b) => d.step === b.step && d.event_index === b.event_index && (d.revealed || d.text_page === b.text_page + 1);
  let shown = await press(page, 'PageDown', reveals, `${lang}: PageDown on b2 pages, then reveals`);
  for (let k = 0; !shown.revealed && k < 8; k++) shown = await press(page, 'PageDown', reveals, `${lang}: PageDown on b2 pages, then reveals`);
  if (!shown.revealed) fail(`${lang}: PageDown on b2 never revealed`);
  const next = await press(page, 'ArrowRight',
    (d, b) => d.event_index === b.event_index + 1 && d.step === b.step && d.revealed, `${lang}: → moves one event`);
  await page.screenshot({ path: path.join(out, `web-${lang}.png`) });
  compareWithDesktop(next, lang, `${lang}-b2`);
  // b2's text may be longer than its pane: PageDown shows its next page first, then moves to b3.
  const onward = (d, b) => (d.step === b3.id && d.event === b3.position && !d.revealed) ||
                           (d.step === b.step && d.text_page === b.text_page + 1);
  let moved = await press(page, 'PageDown', onward, `${lang}: PageDown pages or moves on`);
  for (let k = 0; moved.step !== b3.id && k < 8; k++) moved = await press(page, 'PageDown', onward, `${lang}: PageDown pages or moves on`);
  if (moved.step !== b3.id || moved.event !== b3.position || moved.revealed)
    fail(`${lang}: PageDown moves to ${b3.id}: the app shows step ${moved.step}, event ${moved.event}, revealed ${moved.revealed}`);
  compareWithDesktop(moved, lang, `${lang}-b3`);
  if (log.some((l) => /abort|exception|pageerror/i.test(l))) fail(`${lang}: console: ${log.filter((l) => /abort|exception|pageerror/i.test(l)).join(' | ')}`);
  await page.close();
}

// (BW_CLASS_ONLY=1: only the live class below, while working on it.)
if (!process.env.BW_CLASS_ONLY) {
// A bad scenario through the file input: the error line appears — the same line as the desktop's for
// the same file (file, JSON path, reason), the file's folder aside — and the previous scenario stays.
{
  console.log('bad scenario through the file input:');
  const { page } = await open('lesson=RC-T3&step=b2&lang=en');
  await frames(page, 4);
  const before = await page.evaluate(() => window.bw.dump());
  const bannerBefore = await bannerPixels(page);
  const bad = path.join(out, 'bad_scenario.json');
  fs.writeFileSync(bad, '{"schema_version": 1, "kind": "single_query", "weights": [1, 2], "values": [1]}\n');
  const input = await page.$('#file');
  await input.uploadFile(bad);  // fires the input's change event: index.html's handler opens it
  const t0 = Date.now();
  while (!(await page.evaluate(() => window.bw.dump().error)) && Date.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 50));
  await frames(page, 4);
  const after = await page.evaluate(() => window.bw.dump());
  console.log(`  error line: ${JSON.stringify(after.error)}`);
  const djson = path.join(out, 'desktop-bad-file.json');
  execFileSync('xvfb-run', ['-a', '-s', `-screen 0 ${W}x${H}x24`, desktop, '--no-settings', '--step', 'RC-T3/b2',
    '--lang', 'en', '--width', String(W), '--height', String(H), '--font-px', String(FONT), '--open-after', bad,
    '--screenshot', path.join(out, 'desktop-bad-file.png'), '--dump-scene', djson], { stdio: ['ignore', 'inherit', 'ignore'] });
  const desk = JSON.parse(fs.readFileSync(djson, 'utf8'));
  // The page writes the chosen file into its own file system as /user/NAME (index.html: bw.open);
  // the desktop names it by its path here. The rest of the line (JSON path, reason) is the same.
  const webError = (after.error || '').split('/user/bad_scenario.json').join('<file>');
  const wantError = (desk.error || '').split(bad).join('<file>');
  console.log(`  desktop's line for the same file: ${JSON.stringify(desk.error)}`);
  if (!/^<file>: \/values: .+/.test(webError) || webError !== wantError)
    fail(`bad file: web ${JSON.stringify(webError)} vs desktop ${JSON.stringify(wantError)}`);
  // The previous scenario stays: same step, position and tiles (the banner takes room, so the diagram
  // is laid out smaller: boxes move), and the whole view equals the desktop's after the same file.
  const what = (d) => JSON.stringify([d.step, d.event, d.rects.map((r) => [r.id, r.state, r.badge, r.fill]), d.labels.map((l) => l.text)]);
  if (what(after) !== what(before)) fail(`bad file: the previous scenario did not stay (${before.step} ${before.event} → ${after.step} ${after.event})`);
  const before_fail = failures;
  compare({ ...after, error: webError }, { ...desk, error: wantError }, 'bad-file');
  console.log(`  dump vs desktop after the same file: ${failures === before_fail ? 'equal' : 'DIFFERENT'}`);
  // The banner is on screen: its background colour fills the area under the top bar (none before).
  const bannerPx = await bannerPixels(page);
  console.log(`  error banner's colour (255, 235, 238): ${bannerBefore} pixels before, ${bannerPx} after`);
  if (bannerBefore !== 0 || bannerPx < W * 20) fail(`bad file: the error banner is not on screen (${bannerPx} pixels of its colour)`);
  await page.screenshot({ path: path.join(out, 'web-bad-file.png') });
  await page.close();
}
// Links that name what does not exist (issue 32): the page shows the one-line error over the library,
// never a blank page, and a lesson that is not there is not quietly replaced by RC-T3.
for (const [query, want] of [['lesson=NOPE&step=b2', 'no step "NOPE/b2"'], ['lesson=RC-T3&step=zz9', 'no step "RC-T3/zz9"'],
                             ['lesson=NOPE', 'no step "NOPE"'], ['lesson=RC-T3&step=b2&position=update:99', 'no position "update:99"']]) {
  console.log(`link ${query}:`);
  const { page } = await open(`${query}&lang=en`);
  await frames(page, 4);
  const d = await page.evaluate(() => window.bw.dump());
  console.log(`  error: ${JSON.stringify(d.error)}; library ${d.library}`);
  if (!(d.error || '').startsWith('link: ' + want)) fail(`link ${query}: the page says ${JSON.stringify(d.error)}, not "link: ${want}…"`);
  if (!d.library) fail(`link ${query}: the library is not shown under the error`);
  if ((await bannerPixels(page)) < W * 20) fail(`link ${query}: the error banner is not on screen`);
  await page.close();
}
// A lesson bundle by link (?src=, issue 32): browser_test.sh packed RC-T3 with blockwise-cli into the
// served folder; the page fetches it, the app opens it whole and draws RC-T3/b2 as the built-in lesson
// does (the same rectangles, labels, arrows and texts). A src the server does not have says so in a
// line on the page, and the library opens.
{
  console.log('link src=test-src/rc-t3.bundle.json:');
  const { page: built } = await open('lesson=RC-T3&step=b2&lang=en');
  await frames(built, 4);
  const want = await built.evaluate(() => window.bw.dump());
  await built.close();
  const { page } = await open('src=' + encodeURIComponent('test-src/rc-t3.bundle.json') + '&step=RC-T3/b2&lang=en');
  await frames(page, 4);
  const got = await page.evaluate(() => window.bw.dump());
  console.log(`  step ${got.step}, error ${JSON.stringify(got.error)}, ${got.rects.length} rects`);
  if (got.error) fail(`src bundle: the page shows the error ${JSON.stringify(got.error)}`);
  if (got.step !== 'RC-T3/b2') fail(`src bundle: step ${got.step}, not RC-T3/b2`);
  for (const k of ['rects', 'labels', 'arrows', 'texts']) compare(got[k], want[k], `src bundle/${k}`);
  compareDrawnTexts(got.drawn_texts.filter((t) => t.region !== 'top'), want.drawn_texts.filter((t) => t.region !== 'top'), 'src bundle/drawn_texts');
  await page.close();
  const { page: missing } = await open('src=test-src/missing.bundle.json&lang=en');
  await frames(missing, 4);
  const line = await missing.evaluate(() => (document.getElementById('link-error') || {}).textContent || '');
  const d = await missing.evaluate(() => window.bw.dump());
  console.log(`  missing: ${JSON.stringify(line)}; library ${d.library}`);
  if (!line.includes('404')) fail(`src of a missing file: the page says ${JSON.stringify(line)}, not the server's 404`);
  if (!d.library) fail('src of a missing file: the library is not shown');
  await missing.close();
}
// The schemas are served at the path their "$id" URLs name (src/data/schema_url.h): each schema's
// "$id" ends with the path it is fetched from here, and a bundle's "$schema" is one of them.
{
  const { page } = await open('lang=en');
  const ids = await page.evaluate(async () => {
    const bundle = await (await fetch('test-src/rc-t3.bundle.json')).json();
    const names = ['bundle-v1', 'course-v1', 'lesson-v1', 'scenario-v1', 'scenario-attention-v2', 'scenario-chart',
                   'scenario-moe', 'scenario-decode', 'scenario-ring', 'class-message-v1'];
    const got = {};
    for (const n of names) {
      const r = await fetch(`schemas/${n}.schema.json`);
      got[n] = r.ok ? (await r.json())['$id'] : `HTTP ${r.status}`;
    }
    return { got, bundle: bundle['$schema'], lesson: bundle.files['rc-t3.json']['$schema'] };
  });
  for (const [n, id] of Object.entries(ids.got)) {
    if (!String(id).endsWith(`/schemas/${n}.schema.json`)) fail(`schemas/${n}.schema.json: served "$id" ${JSON.stringify(id)}`);
  }
  if (ids.bundle !== ids.got['bundle-v1']) fail(`a bundle's $schema ${ids.bundle} is not the served bundle schema's $id`);
  if (ids.lesson !== ids.got['lesson-v1']) fail(`a bundled lesson's $schema ${ids.lesson} is not the served lesson schema's $id`);
  console.log(`schemas served: ${Object.keys(ids.got).length}, bundle $schema ${ids.bundle}`);
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
  // A link's settings are for that visit (issue 32: after one projector=1 link every later visit
  // stayed in projector mode): the next plain visit, in the same browser, is not in projector mode.
  const { page: plain } = await open('lesson=RC-T3&step=b2&lang=zh');
  await frames(plain, 4);
  const p = await plain.evaluate(() => window.bw.dump());
  console.log(`after a projector=1 link, a plain visit: projector ${p.projector}`);
  if (p.projector) fail('a projector=1 link changed the next plain visit');
  await plain.close();
}
}  // BW_CLASS_ONLY

// A live class (issue 30): the desktop teacher app (this test's display, under xvfb-run) runs
// --class 127.0.0.1 serving this web build; two students open the join card's URL with its #code=:
// a laptop (en, 1280×800) and a phone (en, 390×844). They follow the teacher's PageDown (a zh
// projector), never see N50/w1's answer before the reveal, answer through the page's field (the
// teacher's histogram counts both, 65/3 as the named plain mean), see their verdicts at the reveal;
// the laptop detaches and scrubs while the class moves on, and "Back to the class" puts it back. At
// each stop a student's dump equals the desktop's own dump at the teacher's position (the student's
// language and window).
if (process.env.BW_WEB_ROOT && process.env.DISPLAY) {
  console.log('live class, two students:');
  const { spawn } = await import('node:child_process');
  const stateFile = path.join(out, 'teacher-state.json');
  fs.rmSync(stateFile, { force: true });
  const teacher = spawn(desktop, ['--no-settings', '--projector', '--lang', 'zh', '--step', 'N50', '--class', '127.0.0.1',
    '--state-file', stateFile, '--width', '1280', '--height', '720'],
    { env: { ...process.env, BLOCKWISE_WEB_ROOT: process.env.BW_WEB_ROOT }, stdio: ['ignore', 'pipe', 'inherit'] });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const teacherState = () => { try { return JSON.parse(fs.readFileSync(stateFile, 'utf8')); } catch (e) { return null; } };
  async function until(what, pred, ms = 20000) {
    const t0 = Date.now();
    while (Date.now() - t0 < ms) { const v = await pred(); if (v) return v; await sleep(50); }
    fail(`live class: ${what}`);
    return null;
  }
  try {
    const t0 = await until('the teacher app started no class', () => { const t = teacherState(); return t && t.class && t.class.url ? t : null; });
    if (!t0) throw new Error('no class');
    const { url: classUrl, code } = t0.class;
    console.log(`  class at ${classUrl}, code ${code}, teacher at ${t0.step}`);
    const wid = execFileSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^Blockwise$']).toString().trim().split('\n')[0];
    const teacherKey = async (key) => {
      const before = teacherState();
      const t1 = Date.now();
      execFileSync('xdotool', ['windowfocus', '--sync', wid], { timeout: 5000 });
      execFileSync('xdotool', ['key', '--window', wid, key], { timeout: 5000 });
      if (process.env.BW_CLASS_ONLY) console.log(`    teacher: ${key} sent (${Date.now() - t1} ms)`);
      return until(`the teacher's ${key} changed nothing`, () => {
        const t = teacherState();
        return t && (t.step !== before.step || t.event !== before.event || t.revealed !== before.revealed ||
                     t.text_page !== before.text_page || t.title_card !== before.title_card) ? t : null;
      });
    };
    async function student(w, h, name) {
      const page = await browser.newPage();
      await page.setViewport({ width: w, height: h });
      const log = [];
      page.on('console', (m) => log.push(m.text()));
      page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
      const t0 = Date.now();
      await page.goto(`${classUrl}?lang=en&width=${w}&height=${h}&font_px=${FONT}#code=${code}`);
      console.log(`  ${name}: page loaded after ${Date.now() - t0} ms`);
      await page.waitForFunction(() => window.bwClass && window.bwClass.joined, { timeout: 60000, polling: 100 })
        .catch((e) => { throw new Error(`${name} did not join: ${e.message}\n${log.join('\n')}`); });
      console.log(`  ${name}: joined after ${Date.now() - t0} ms`);
      return { page, log, w, h, name };
    }
    const laptop = await student(W, H, 'laptop'), phone = await student(390, 844, 'phone');
    const dump = (s) => s.page.evaluate(() => window.bw.dump());
    // Both students at the teacher's step, position and reveal (a following student).
    const follows = async (s, t) => until(`${s.name} does not show the teacher's ${t.step} ${t.event}`, async () => {
      const t1 = Date.now();
      const d = await dump(s);
      if (process.env.BW_CLASS_ONLY) console.log(`    ${s.name}: ${d.step} ${d.event} ${d.title_card} (${Date.now() - t1} ms)`);
      return d.step === t.step && d.event === t.event && d.revealed === t.revealed && d.title_card === t.title_card ? d : null;
    });
    const what = (d) => JSON.stringify([d.step, d.event, d.revealed, d.rects.map((r) => [r.id, r.state, r.badge]), d.labels.map((l) => l.text)]);
    const sameAsDesktop = async (s, t, name) => {
      await s.page.bringToFront();   // a background tab draws no frames (requestAnimationFrame waits)
      await frames(s.page, 4);
      const d = await dump(s);
      const djson = path.join(out, `desktop-class-${name}.json`);
      execFileSync('xvfb-run', ['-a', '-s', `-screen 0 ${s.w}x${s.h}x24`, desktop, '--no-settings', '--step', t.step,
        '--position', t.event, ...(t.revealed ? ['--reveal'] : []), '--lang', 'en', '--width', String(s.w),
        '--height', String(s.h), '--font-px', String(FONT), '--screenshot', path.join(out, `desktop-class-${name}.png`), '--dump-scene', djson],
        { stdio: ['ignore', 'ignore', 'inherit'] });
      const desk = JSON.parse(fs.readFileSync(djson, 'utf8'));
      const same = what(d) === what(desk);
      console.log(`  ${s.name} at ${t.step} ${t.event}${t.revealed ? ' revealed' : ''}: ${same ? 'equal to' : 'DIFFERENT from'} the desktop's dump there`);
      if (!same) { fs.writeFileSync(path.join(out, `web-class-${name}.json`), JSON.stringify(d, null, 2)); fail(`live class: ${s.name}'s dump at ${t.step} differs from the desktop's`); }
      return d;
    };
    const texts = (d) => [...d.labels.map((l) => l.text), ...(d.texts || []).map((x) => x.text || ''), ...(d.drawn_texts || []).map((x) => x.text)].join('\n');
    let t = teacherState();
    await follows(laptop, t);
    await follows(phone, t);
    // PageDown to N50/w1, the question: the students follow every press.
    for (let k = 0; k < 12 && !(t.step === 'N50/w1' && !t.title_card && !t.revealed); k++) {
      t = await teacherKey('Next');
      await follows(laptop, t);
      await follows(phone, t);
    }
    if (t.step !== 'N50/w1') throw new Error(`the teacher's PageDown never reached N50/w1 (at ${t.step})`);
    const before = await sameAsDesktop(laptop, t, 'w1-open');
    const phoneBefore = await dump(phone);
    await phone.page.bringToFront();   // a background tab neither draws nor is captured
    await frames(phone.page, 4);
    await phone.page.screenshot({ path: path.join(out, 'web-class-phone-question.png') });
    for (const [d, who] of [[before, 'laptop'], [phoneBefore, 'phone']])
      if (/160\/7|22\.857/.test(texts(d))) fail(`live class: the ${who} shows N50/w1's answer before the reveal`);
    // Each answers through the page's field (a phone has no other keyboard).
    for (const [s, a] of [[laptop, '160/7'], [phone, '65/3']]) {
      await s.page.bringToFront();
      await s.page.waitForSelector('#answer:not([hidden])', { visible: true, timeout: 10000 });
      await s.page.type('#answer-text', a + '\n');   // Enter sends, as a phone's keyboard "Go" does
    }
    const counted = await until("the teacher's histogram does not count both answers", () => {
      const x = teacherState();
      return x && x.class && x.class.bars && x.class.bars.reduce((n, b) => n + b.count, 0) === 2 ? x : null;
    });
    if (!counted) console.log(`  the teacher's class: ${JSON.stringify((teacherState() || {}).class)}`);
    if (counted) {
      const bars = Object.fromEntries(counted.class.bars.map((b) => [b.answer, b]));
      console.log(`  the teacher's histogram: ${JSON.stringify(counted.class.bars)}`);
      if (!(bars['160/7'] && bars['160/7'].right && bars['65/3'] && !bars['65/3'].right && bars['65/3'].mistake))
        fail(`live class: histogram ${JSON.stringify(counted.class.bars)}`);
    }
    // The reveal (PageDown shows the question's further pages first): both see the answer, each their own verdict.
    for (let k = 0; k < 8 && t.step === 'N50/w1' && !t.revealed; k++) t = await teacherKey('Next');
    if (!t.revealed) fail(`live class: the teacher's PageDown at N50/w1 did not reveal (${t.step})`);
    const dl = await follows(laptop, t), dp = await follows(phone, t);
    if (dl && dp) {
      console.log(`  verdicts: laptop ${dl.answer.verdict}, phone ${dp.answer.verdict} (mistake ${dp.answer.mistake})`);
      if (dl.answer.verdict !== 0 || dp.answer.verdict === 0 || dp.answer.mistake < 0) fail('live class: the verdicts at the reveal');
    }
    await sameAsDesktop(laptop, t, 'w1-revealed');
    await phone.page.bringToFront();
    await frames(phone.page, 4);
    await phone.page.screenshot({ path: path.join(out, 'web-class-phone-revealed.png') });
    // The laptop explores on its own (→ detaches: pacing is not locked) while the class moves on.
    await laptop.page.bringToFront();
    await laptop.page.focus('#canvas');
    await laptop.page.keyboard.press('ArrowLeft');
    await laptop.page.keyboard.press('ArrowLeft');
    const detached = await until('→ on the laptop did not detach it', async () => { const d = await dump(laptop); return d.student && !d.student.following ? d : null; });
    // (Where both presses have landed: the first detaches, and the dump could be read before the
    // second moved the laptop one more event, which read as the class moving it.)
    if (detached) await frames(laptop.page, 4);
    const away = detached ? await dump(laptop) : null;
    for (let k = 0; k < 12 && t.step === 'N50/w1'; k++) t = await teacherKey('Next');   // on to the next step
    await follows(phone, t);
    const still = await dump(laptop);
    if (away && still.event !== away.event) fail('live class: an exploring student was moved by the class');
    await laptop.page.bringToFront();
    await frames(laptop.page, 4);
    await laptop.page.screenshot({ path: path.join(out, 'web-class-exploring.png') });
    // Back to the class: at the teacher's position at once.
    await laptop.page.evaluate(() => window.bw.follow(true));
    await follows(laptop, t);
    await sameAsDesktop(laptop, t, 'rejoined');
    await sameAsDesktop(phone, t, 'phone-rejoined');
    for (const s of [laptop, phone]) {
      if (s.log.some((l) => /abort|exception|pageerror/i.test(l))) fail(`live class: ${s.name}'s console: ${s.log.join(' | ')}`);
      await s.page.close();
    }
  } catch (e) {
    fail(`live class: ${e.message}`);
  } finally {
    teacher.kill();
  }
}

await browser.close();
console.log(failures ? `browser test: ${failures} failure(s)` : 'browser test: passed');
process.exit(failures ? 1 : 0);
