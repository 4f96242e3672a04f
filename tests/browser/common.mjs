// What both browser tests share: the two widths they look at, their
// screenshots, the launch of Debian's Chromium, and the contrast check
// (WCAG 2: at least 4.5:1).
import { chromium } from "playwright-core";

export const DESKTOP = { width: 1280, height: 900 }, PHONE = { width: 390, height: 844 };

// screenshots of `page` at phone and desktop width, to `${prefix}-phone.png` and `${prefix}-desktop.png`
export async function shoot(page, prefix, options = {}) {
  for (const [size, tag] of [[PHONE, "phone"], [DESKTOP, "desktop"]]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${prefix}-${tag}.png`, ...options });
  }
}

// pushes onto `problems` every script error of `page`, every response of 400 or more whose URL
// `expected` does not accept, and every request that failed (other than one the page aborted)
export function watch(page, problems, expected = () => false) {
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => { if (r.status() >= 400 && !expected(r.url())) problems.push(`${r.status()} ${r.url()}`); });
  page.on("requestfailed", (r) => { if (!/ABORTED/.test(r.failure()?.errorText ?? "")) problems.push(`failed ${r.url()}`); });
}

export const launch = () => chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });

// every element with text of its own: its colour against the first opaque background behind it
// (a Connect Four hole is its cell's ::before) has a WCAG contrast ratio of at least 4.5
export async function contrasts(page) {
  return page.evaluate(() => {
    const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    const behind = (el) => {
      for (let e = el; e; e = e.parentElement) {
        if (e.matches(".gravity .cell")) { const b = getComputedStyle(e, "::before").backgroundColor; if (rgb(b)[3] !== 0) return b; }
        const b = getComputedStyle(e).backgroundColor, v = rgb(b);
        if (v.length === 3 || v[3] === 1) return b;
      }
      return "rgb(255, 255, 255)";
    };
    const low = [];
    for (const el of document.querySelectorAll("body *")) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.getClientRects().length || ["SCRIPT", "STYLE", "OPTION"].includes(el.tagName)) continue;
      const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(behind(el)))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) low.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}": ${ratio.toFixed(2)}`);
    }
    return low;
  });
}
