// The end-to-end test of `retrograde serve`'s page (issues 75 and 87), in
// headless Chromium (Debian's) driven by playwright-core, against a server
// with its defaults (--move-seconds 5):
//
// * the opening view is answered; its values, and tic-tac-toe's after b2,
//   equal `retrograde search --all-moves --json` on the same positions;
// * coordinates (column numbers; m,n,k letters and row numbers) and the
//   last-move marker are drawn; the legend's samples are drawn as the
//   board's marks (colour, ring); every text on the page has a contrast of
//   at least 4.5:1 with what is behind it (WCAG); at 1280 × 900 the
//   evaluation, the best line and the legend are on screen;
// * the move list goes back on a click, the keys go back and forward;
// * a 7 × 6 Connect Four game is played from the empty board to its end
//   against the engine as each side, with the server's defaults, each
//   engine move within the page's time;
// * gomoku (15 × 15, k = 5) after h8 a1 i9 a15 shows j10's proved win;
// * with a server of 0.05 s a search, the engine still moves on 7 × 6
//   past the book (marked not proved), and the time field is capped;
// * no request fails (the favicon is inline) and no script error.
//
// Screenshots at 1280 × 900 and 390 × 844 of the opening view, a 7 × 6
// position in mid-game, tic-tac-toe and gomoku go to SCREENSHOTS (a
// directory, results/serve by default), for a person to look at.
//
//   scripts/install-browser.sh && scripts/browser-test.sh
import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";
import { contrasts, shoot as shootAt, launch, watch, DESKTOP } from "./common.mjs";

const binary = process.env.RETROGRADE ?? "target/release/retrograde";
const shots = process.env.SCREENSHOTS ?? "results/serve";
const shoot = (page, name) => shootAt(page, `${shots}/page-${name}`);
const started = Date.now();
const MOVE_SECONDS = 5; // the server's default --move-seconds

// a server on a free loopback port: its first line names the address
const servers = [];
async function serve(...flags) {
  const server = spawn(binary, ["serve", "--addr", "127.0.0.1:0", ...flags], { stdio: ["ignore", "pipe", "inherit"] });
  servers.push(server);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.once("line", (line) => resolve(line.replace("listening on ", "")));
    server.once("exit", (code) => reject(new Error(`the server ended with ${code}`)));
  });
}
// the server's defaults; and one whose searches have 0.05 s, where nothing on 7 × 6 is proved
const base = await serve();
const hurried = await serve("--move-seconds", "0.05");

// every legal move's value as the page draws it: "W12", "D", "L3" …
function expected(game, cols, rows, k, moves) {
  const args = ["search", game, "--cols", cols, "--rows", rows, "--k", k, "--all-moves", "--json", "--time-limit", "60"];
  if (moves.length) args.push("--moves", moves.join(" "));
  const answer = JSON.parse(execFileSync(binary, args, { encoding: "utf8" }));
  return Object.fromEntries(answer.moves.map((m) => [m.move, m.value[0].toUpperCase() + (m.depth ?? "")]));
}

// the page has answered the position shown (and played the engine's move, if it was the engine's turn)
async function settled(page, timeout = 30_000) {
  await page.waitForFunction(() => document.body.dataset.settled === "1", null, { timeout });
}
const moves = (page) => page.$$eval("#movelist .ply:not(.future)", (b) => b.map((x) => x.textContent.replace("*", "")).filter((t) => t !== "start"));
// the marks drawn on the board: Connect Four by column, m,n,k by cell name
const marks = (page) => page.$$eval("#board .cell", (cells) => Object.fromEntries(cells
  .filter((c) => c.querySelector(".mark"))
  .map((c) => [document.getElementById("board").className === "gravity" ? c.dataset.col : c.getAttribute("aria-label").split(":")[0],
               c.querySelector(".mark").textContent])));


const browser = await launch();
let failed = false;
const problems = [];
try {
  const page = await browser.newPage({ viewport: DESKTOP });
  watch(page, problems);

  // the opening view: the empty 7 × 6 board, answered at once from the built-in book
  await page.goto(`${base}/`);
  assert.equal(await page.inputValue("#seconds"), String(MOVE_SECONDS));
  const opened = Date.now();
  await settled(page);
  assert.ok(Date.now() - opened < 3000, `the opening view took ${Date.now() - opened} ms`);
  const opening = await moves(page);
  assert.deepEqual(opening, []);
  assert.match(page.url(), /game=connect&cols=7&rows=6/);
  assert.match(await page.textContent("#summary"), /wins in \d+ plies|draw with best play/);
  assert.deepEqual(await page.$$eval("#board .lab", (l) => l.map((x) => x.textContent)), ["1", "2", "3", "4", "5", "6", "7"]);
  const want = expected("connect", "7", "6", "4", opening);
  assert.deepEqual(await marks(page), want);
  // the best line, and the evaluation, best line and legend on screen at 1280 × 900
  await page.waitForFunction(() => document.querySelectorAll("#pv .ply").length >= 2, null, { timeout: 15_000 });
  for (const id of ["summary", "pv", "legend"]) {
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(box.y + box.height <= DESKTOP.height, `#${id} is below the fold (${box.y + box.height})`);
  }
  // the legend's samples are drawn as the board's marks
  const style = (sel) => page.$eval(sel, (e) => { const s = getComputedStyle(e); return [s.color, s.borderTopStyle, s.borderTopColor, s.fontWeight]; });
  assert.ok(await page.locator("#board .mark.best").count() >= 1);
  for (const value of ["win", "draw", "loss"]) {
    for (const best of [":not(.best)", ".best"]) {
      const sel = `#board .mark.${value}${best}`;
      if (await page.locator(sel).count()) assert.deepEqual(await style(sel), await style(`#legend .mark.${value}${best}`), sel);
    }
  }
  assert.deepEqual(await contrasts(page), []);
  assert.match(await page.getAttribute('link[rel="icon"]', "href"), /^data:image\/svg\+xml,/);
  await shoot(page, "opening-7x6");

  // the move list and the last move, on a game of ten plies: back to the position after two
  // moves on a click, then forward with →
  const ten = ["4", "4", "4", "3", "5", "3", "3", "4", "6", "7"];
  await page.goto(`${base}/#game=connect&cols=7&rows=6&k=4&moves=${ten.join("+")}`);
  await page.reload();
  await settled(page);
  assert.equal(await page.locator("#board .stone.last").count(), 1);
  assert.deepEqual(await page.$eval("#board .stone.last", (e) => getComputedStyle(e, "::after").borderTopStyle),
                   await page.$eval("#legend .stone.last", (e) => getComputedStyle(e, "::after").borderTopStyle));
  await page.click('#movelist [data-ply="2"]');
  await settled(page);
  assert.deepEqual(await moves(page), ten.slice(0, 2));
  assert.match(page.url(), new RegExp(`moves=${ten.slice(0, 2).join("\\+")}$`));
  assert.equal(await page.locator("#movelist .ply.future").count(), ten.length - 2);
  await page.keyboard.press("ArrowRight");
  await settled(page);
  assert.deepEqual(await moves(page), ten.slice(0, 3));
  await page.keyboard.press("End");
  await settled(page);
  assert.deepEqual(await moves(page), ten);

  // a 7 × 6 game in its middle, a move played with the keyboard
  await page.goto(`${base}/#game=connect&cols=7&rows=6&k=4&moves=4+4+4+3+5+3+3+4+6+7+5+3+5+5+2+4`);
  await page.reload();
  await settled(page);
  await page.keyboard.press("3");
  await settled(page);
  assert.equal((await moves(page)).at(-1), "3");
  await page.waitForFunction(() => document.querySelectorAll("#pv .ply").length >= 2, null, { timeout: 15_000 });
  assert.deepEqual(await contrasts(page), []);
  await shoot(page, "7x6-mid");

  // tic-tac-toe: b2 (the centre) by a click, then every free cell's value, and the coordinates
  await page.goto(`${base}/#game=mnk&cols=3&rows=3&k=3`);
  await page.reload();
  await settled(page);
  await page.click('#board .cell[aria-label^="b2"]');
  await settled(page);
  assert.deepEqual(await marks(page), expected("mnk", "3", "3", "3", ["b2"]));
  assert.deepEqual(await page.$$eval("#board .lab", (l) => l.map((x) => x.textContent).filter(Boolean)), ["a", "b", "c", "1", "2", "3"]);
  await page.click('#board .cell[aria-label^="a1"]');
  await settled(page);
  // the keyboard on the board: from b2 (a stone) the arrow to c2, Enter plays it
  await page.focus('#board .cell[aria-label^="b2"]');
  await page.keyboard.press("ArrowRight");
  assert.match(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), /^c2/);
  await page.keyboard.press("Enter");
  await settled(page);
  assert.deepEqual(await moves(page), ["b2", "a1", "c2"]);
  await page.waitForFunction(() => document.querySelectorAll("#pv .ply").length >= 2, null, { timeout: 15_000 });
  assert.deepEqual(await contrasts(page), []);
  await shoot(page, "tictactoe");

  // gomoku: X to move after h8 a1 i9 a15 wins with j10, the threat prover's proof shown first
  await page.goto(`${base}/#game=mnk&cols=15&rows=15&k=5&moves=h8+a1+i9+a15`);
  await page.reload();
  await page.waitForSelector('#board .cell[aria-label^="j10"] .mark.win.best', { timeout: 15_000 });
  assert.match(await page.textContent("#summary"), /^X wins/);
  // once every move is asked for, the proved win stays the one best move: no guess ringed beside it
  await settled(page);
  assert.equal(await page.locator("#board .mark.open.best").count(), 0);
  assert.equal(await page.$$eval("#board .lab", (l) => l.filter((x) => x.textContent === "o" || x.textContent === "15").length), 2);
  await settled(page);
  assert.deepEqual(await contrasts(page), []);
  await shoot(page, "gomoku");

  // the engine always moves: on 7 × 6 past the book with 0.05 s, a move marked not proved
  // (the server's best so far, or, from a server that gives none, the page's centre column)
  // (9 stones, past the 8-stone book: its search takes about 0.5 s here)
  await page.goto(`${hurried}/#game=connect&cols=7&rows=6&k=4&moves=1+2+3+5+5+5+6+2+1&side=X`);
  await settled(page, 15_000);
  assert.equal((await moves(page)).length, 10);
  assert.match(await page.textContent("#movelist"), /\*.*not proved/);
  assert.match(await page.textContent("#notice"), /not proved/);
  // the API's coming contract (issue 87): a move with "proved": false is played and marked, an
  // unreached answer's "best_so_far" is drawn as a ringed "?" (the server's replies stood in for)
  const reply = (body) => (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/api/v1/move?**", reply({ move: "3", proved: false, value: null, depth: null, engine: "search",
                                                positions_searched: 1, seconds: 0.05, reached: false }));
  await page.route("**/api/v1/analyze?**", reply({ position: ".", to_move: "O", status: "in_progress", engine: "search",
                                                   positions_searched: 1, seconds: 0.05, reached: false,
                                                   best_so_far: { move: "4", proved: false } }));
  await page.goto(`${hurried}/#game=connect&cols=7&rows=6&k=4&side=O`);
  await page.reload();
  await settled(page, 15_000);
  assert.deepEqual(await moves(page), ["3"]);
  assert.match(await page.textContent("#movelist"), /3\*/);
  assert.match(await page.textContent("#notice"), /the best it found in 0.05 s, not proved/);
  assert.equal(await page.textContent('#board .cell[data-col="4"] .mark.open.best'), "?");
  assert.match(await page.textContent("#summary"), /best found so far: 4 \(not proved\)/);
  await page.unrouteAll();

  // the time field: at most the server's --move-seconds, and the page says so when a larger one is typed
  assert.equal(await page.getAttribute("#seconds", "max"), "0.05");
  await page.fill("#seconds", "30");
  assert.match(await page.textContent("#cap"), /capped at 0.05 s/);

  // against the engine on 7 × 6 from the empty board, as X and as O, to the end, with the
  // server's defaults: the player takes a ringed best move (else the first free column); every
  // engine move on the board within the page's time (--move-seconds) and a little
  for (const side of ["X", "O"]) {
    await page.goto(`${base}/#game=connect&cols=7&rows=6&k=4&side=${side}`);
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('#movelist .ply:not(.future):not([data-ply="0"])').length >= n, side === "O" ? 1 : 0,
                               { timeout: (MOVE_SECONDS + 3) * 1000 });
    await settled(page, (MOVE_SECONDS + 10) * 1000);
    const slowest = [];
    for (let ply = 0; ply < 22; ply++) {
      if (/^game over/.test(await page.textContent("#turn"))) break;
      const before = (await moves(page)).length, clicked = Date.now();
      const best = page.locator("#board .cell:has(.mark.best)").first();
      await (await best.count() ? best : page.locator("#board .cell:not([aria-disabled])").first()).click();
      await page.waitForFunction((n) => document.querySelectorAll('#movelist .ply:not(.future):not([data-ply="0"])').length >= n
                                   || /^game over/.test(document.getElementById("turn").textContent),
                                 before + 2, { timeout: (MOVE_SECONDS + 3) * 1000 });
      slowest.push((Date.now() - clicked) / 1000);
      await settled(page, (MOVE_SECONDS + 10) * 1000);
    }
    assert.match(await page.textContent("#turn"), /^game over: .*(X won|O won|a draw)/, `7×6 as ${side}: the game did not end`);
    console.log(`7×6 as ${side}: ${(await moves(page)).join(" ")}: ${await page.textContent("#summary")}; ` +
                `the engine's slowest move ${Math.max(...slowest).toFixed(1)} s`);
  }
  assert.deepEqual(problems, []);
  console.log(`browser test: passed in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots in ${shots}`);
} catch (e) {
  failed = true;
  console.error(e, problems);
} finally {
  await browser.close();
  servers.forEach((server) => server.kill("SIGTERM"));
}
process.exit(failed ? 1 : 0);
