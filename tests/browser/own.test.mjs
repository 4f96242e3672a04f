// The end-to-end test of a game of one's own served (issue 89): the
// example `mnk_rules` (4 × 4, three in a row, written for the rules trait)
// runs `serve`, which solves it and answers its page and `/api/v1/own`,
// in headless Chromium (Debian's) driven by playwright-core:
//
// * the start and the position after a few clicked moves show every move
//   with the value and depth `retrograde search mnk --all-moves --json`
//   gives on the same board (an engine of its own, the built-in one);
// * the move list goes back on a click and with the Back button, the
//   position is in the URL's hash and comes back on a reload;
// * a move list in the hash that is not legal shows the one-line error;
// * every text has a contrast of at least 4.5:1; no request fails and no
//   script error.
//
// Screenshots at 1280 × 900 and 390 × 844 go to SCREENSHOTS
// (results/serve by default), for a person to look at.
//
//   scripts/install-browser.sh && scripts/browser-test.sh
import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";
import { contrasts, shoot as shootAt, launch, watch, DESKTOP } from "./common.mjs";

const binary = process.env.RETROGRADE ?? "target/release/retrograde";
const example = process.env.OWN_GAME ?? "target/release/examples/mnk_rules";
const shots = process.env.SCREENSHOTS ?? "results/serve";
const shoot = (page, name) => shootAt(page, `${shots}/own-${name}`, { fullPage: true });
const started = Date.now();

const server = spawn(example, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once("line", (line) => resolve(line.replace("listening on ", "")));
  server.once("exit", (code) => reject(new Error(`the server ended with ${code}`)));
});

// every move's value as the page shows it ("W5", "D", "L10"), from the built-in engine
function expected(moves) {
  const args = ["search", "mnk", "--cols", "4", "--rows", "4", "--k", "3", "--all-moves", "--json"];
  if (moves.length) args.push("--moves", moves.join(" "));
  const answer = JSON.parse(execFileSync(binary, args, { encoding: "utf8" }));
  return Object.fromEntries(answer.moves.map((m) => [m.move, m.value[0].toUpperCase() + (m.value === "draw" ? "" : m.depth)]));
}
const shown = (page) => page.$$eval("#moves button", (b) => Object.fromEntries(b.map((x) => {
  const [name, value] = x.textContent.trim().split(/\s+/);
  return [name, value];
})));
const settled = (page) => page.waitForFunction(() => document.body.dataset.settled === "1", null, { timeout: 15_000 });


const browser = await launch();
let failed = false;
const problems = [];
try {
  const page = await browser.newPage({ viewport: DESKTOP });
  // the illegal line asked on purpose below is answered 400
  watch(page, problems, (url) => url.includes("moves=a1%20a1"));

  await page.goto(`${base}/`);
  await settled(page);
  assert.equal(await page.textContent("h1"), "4x4 k=3");
  assert.match(await page.textContent("#about"), /756,387 positions/);
  assert.deepEqual(await shown(page), expected([]));
  assert.match(await page.textContent("#verdict"), /The player to move has a (win in \d+ plies|draw)/);
  assert.deepEqual(await contrasts(page), []);
  await shoot(page, "start");

  // three moves clicked: each position's values equal the built-in engine's
  const line = [];
  for (const cell of ["b2", "a1", "c3"]) {
    await page.click(`#moves button:has(.name:text-is("${cell}"))`);
    line.push(cell);
    await settled(page);
    assert.deepEqual(await shown(page), expected(line), line.join(" "));
  }
  assert.match(await page.textContent("#position"), /^ {2}a b c d\n1 O \. \. \.\n2 \. X \. \.\n3 \. \. X \.\n/);
  assert.ok(await page.locator("#moves button.best").count() >= 1, "a best move is marked");
  assert.deepEqual(await contrasts(page), []);
  await shoot(page, "mid-game");

  // back by the move list and by the button; the hash keeps the line
  await page.click('#line button:text-is("1. b2")');
  await settled(page);
  assert.deepEqual(await shown(page), expected(["b2"]));
  await page.click("#back");
  await settled(page);
  assert.deepEqual(await shown(page), expected([]));
  assert.equal(decodeURIComponent(new URL(page.url()).hash), "#b2 a1 c3");
  await page.reload();
  await settled(page);
  assert.deepEqual(await shown(page), expected(line));

  // a line that is not legal: its error, and the position before it
  await page.goto(`${base}/#a1%20a1`);
  await page.reload();
  await settled(page);
  assert.match(await page.textContent("#error"), /move 2 \(a1\) is not legal here/);
  assert.deepEqual(await shown(page), expected(["a1"]));

  assert.deepEqual(problems, []);
  console.log(`own-game browser test: passed in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots in ${shots}`);
} catch (e) {
  failed = true;
  console.error(e, problems);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
