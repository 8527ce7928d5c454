// Renders each Mermaid file named on the command line with mermaid (npm) in Debian's headless
// Chromium, driven by playwright-core; exits 1 if any fails to parse or render. `run.sh` makes
// the files with `jr2 graph --format mermaid` and calls this. A picture that takes longer than
// 30 s fails (Mermaid's layout can loop on some shapes). With JR2_GRAPH_SHOTS=DIR, each rendered
// picture is also saved there as a PNG, for a person to look at.
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node render.mjs FILE.mmd...");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const mermaidJs = createRequire(join(here, "package.json")).resolve("mermaid/dist/mermaid.min.js");
const profile = mkdtempSync(join(tmpdir(), "jr2-graph-chromium-"));
const started = Date.now();
// A new empty profile: playwright passes it to Chromium as --user-data-dir.
const browser = await chromium.launchPersistentContext(profile, {
  headless: true,
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
let failed = 0;
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.setContent("<!doctype html><html><body><div id=out></div></body></html>");
  await page.addScriptTag({ path: mermaidJs });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict" }));
  for (const [n, file] of files.entries()) {
    const text = readFileSync(file, "utf8");
    const rendering = page.evaluate(
      async ({ text, n }) => {
        try {
          const parsed = await window.mermaid.parse(text);
          if (!parsed) return { ok: false, error: "mermaid.parse returned false" };
          const { svg } = await window.mermaid.render(`graph${n}`, text);
          const out = document.getElementById("out");
          out.innerHTML = svg;
          const nodes = out.querySelectorAll("g.node, g.statediagram-state, g.stateGroup").length;
          const broken = svg.includes("Syntax error") || out.querySelector(".error-icon") !== null;
          return broken ? { ok: false, error: "rendered mermaid's error picture" } : { ok: true, nodes, bytes: svg.length };
        } catch (e) {
          return { ok: false, error: String(e?.message ?? e) };
        }
      },
      { text, n },
    );
    const timeout = new Promise((done) => setTimeout(() => done({ ok: false, error: "no picture after 30 s" }), 30_000));
    const result = await Promise.race([rendering, timeout]);
    if (!result.ok && result.error === "no picture after 30 s") {
      failed++;
      console.log(`FAIL  ${file}: ${result.error}`);
      break; // the page is still busy with it
    }
    if (result.ok && process.env.JR2_GRAPH_SHOTS) {
      const name = basename(file).replace(/\.mmd$/, "") + ".png";
      await page.locator("#out svg").screenshot({ path: join(process.env.JR2_GRAPH_SHOTS, name) });
    }
    if (result.ok && result.nodes > 0) {
      console.log(`ok    ${file} (${result.nodes} nodes, ${result.bytes} bytes of SVG)`);
    } else {
      failed++;
      console.log(`FAIL  ${file}: ${result.error ?? "no state drawn"}`);
    }
  }
  for (const e of pageErrors) {
    failed++;
    console.log(`FAIL  page error: ${e}`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${files.length - failed}/${files.length} rendered in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
