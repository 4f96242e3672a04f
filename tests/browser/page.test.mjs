// The end-to-end test of `retrograde serve`'s page (issue 75, line 5), in
// headless Chromium (Debian's) driven by playwright-core: the page loads,
// a Connect Four line and an m,n,k line are played by clicks, the values
// shown for every legal move equal `retrograde search --all-moves --json`
// on the same positions, and a screenshot of a 7×6 position with every
// move's value is saved for a person to look at.
//
//   scripts/install-browser.sh && scripts/browser-test.sh
//
// RETROGRADE (the binary) and SCREENSHOT (where to save it) come from the
// environment.
import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const binary = process.env.RETROGRADE ?? "target/release/retrograde";
const screenshot = process.env.SCREENSHOT ?? "results/serve/page-7x6.png";

// the server on a free loopback port: its first line names the address
const server = spawn(binary, ["serve", "--addr", "127.0.0.1:0", "--move-seconds", "120", "--threads", "2"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const base = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: server.stdout });
  lines.once("line", (line) => resolve(line.replace("listening on ", "")));
  server.once("exit", (code) => reject(new Error(`the server ended with ${code}`)));
});

// every legal move's value as the page shows it: "W12", "D", "L3" …
function expected(game, cols, rows, k, moves) {
  const args = ["search", game, "--cols", cols, "--rows", rows, "--k", k, "--all-moves", "--json", "--time-limit", "60"];
  if (moves.length) args.push("--moves", moves.join(" "));
  const answer = JSON.parse(execFileSync(binary, args, { encoding: "utf8" }));
  return Object.fromEntries(answer.moves.map((m) => [m.move, m.value[0].toUpperCase() + (m.depth ?? "")]));
}

async function settled(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById("status").textContent;
    return s && s !== "thinking…";
  }, null, { timeout: 60_000 });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 820, height: 1000 } });
  page.on("pageerror", (e) => { failed = true; console.error("page error:", e.message); });

  // the page's search time is the server's --move-seconds; the position
  // comes from the URL (the empty board would take all of it)
  await page.goto(`${base}/#game=connect&cols=7&rows=6&k=4&moves=4+4+4+3`);
  assert.equal(await page.inputValue("#seconds"), "120");
  await settled(page);
  assert.equal(await page.textContent("#moves"), "moves: 4 4 4 3");

  // Connect Four 7 × 6: play 5 by clicking the bottom cell of its column
  // (a search of about 3 s here, as the CLI's of the same)
  const line = ["4", "4", "4", "3", "5"];
  await page.locator("#board .cell").nth(5 * 7 + 5 - 1).click();
  await settled(page);
  assert.match(page.url(), /moves=4\+4\+4\+3\+5/);
  assert.match(await page.textContent("#status"), /^O to move: (win|draw|loss)/);
  const shownConnect = await page.$$eval("#heads .head", (heads) => heads.map((h) => h.textContent));
  const wantConnect = expected("connect", "7", "6", "4", line);
  for (let c = 1; c <= 7; c++) assert.equal(shownConnect[c - 1], wantConnect[String(c)] ?? "", `column ${c}`);
  await page.screenshot({ path: screenshot, fullPage: true });

  // undo and redo keep the answer
  await page.keyboard.press("ArrowLeft");
  await settled(page);
  assert.equal(await page.textContent("#moves"), "moves: 4 4 4 3");
  await page.keyboard.press("ArrowRight");
  await settled(page);
  assert.equal(await page.textContent("#moves"), "moves: 4 4 4 3 5");

  // tic-tac-toe: b2 (the centre, cell 4), then every empty cell's value
  await page.goto(`${base}/#game=mnk&cols=3&rows=3&k=3`);
  await page.reload();
  await settled(page);
  await page.locator("#board .cell").nth(4).click();
  await settled(page);
  const shownMnk = await page.$$eval("#board .cell", (cells) => cells.map((c) => c.textContent));
  const wantMnk = expected("mnk", "3", "3", "3", ["b2"]);
  const names = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
  names.forEach((name, i) => assert.equal(shownMnk[i], wantMnk[name] ?? "", name));

  // play against perfect play: as O on 4 × 4 Connect Four, the server answers X's moves
  await page.goto(`${base}/#game=connect&cols=4&rows=4&k=4&side=O`);
  await page.reload();
  await settled(page);
  await page.waitForFunction(() => document.getElementById("moves").textContent !== "moves: none yet", null, { timeout: 60_000 });
  console.log("browser test: passed; screenshot at", screenshot);
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
