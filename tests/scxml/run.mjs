// The W3C / SCION SCXML conformance cases through jr2's SCXML front end and runtime.
//
// Every `test/<group>/<case>.scxml` of @scion-scxml/test-framework with its `<case>.json` runs
// through one `jr2 sim FILE --events EVENTS.jsonl` of the case's events: the
// initial step alone, then after each event (its `after` first, as `{"after": MS}`). A case
// passes only when every one of those configurations, as a set of atomic state ids, is the
// expected one (the case's `initialConfiguration`, then each event's `nextConfiguration`).
//
//   node run.mjs --jr2 PATH [--check passing.txt] [--bless passing.txt] [--doc docs/conformance.md]
//                [--results results.json] [--only GROUP] [--jobs N]
//
// --check fails (exit 1) when a case listed in the pass list does not pass; --bless writes the
// list of passing cases; --doc writes the per-group table with the skipped cases and reasons.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { tmpdir, cpus } from "node:os";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const jr2 = opt("--jr2") ?? "jr2";
const only = opt("--only");
const jobs = Number(opt("--jobs") ?? Math.max(1, cpus().length));
const framework = join(here, "node_modules/@scion-scxml/test-framework/test");
if (!existsSync(framework)) {
  console.error(`no ${relative(process.cwd(), framework)}: run tests/scxml/run.sh (it installs the test framework)`);
  process.exit(2);
}
const skips = JSON.parse(readFileSync(join(here, "skips.json"), "utf8"));

/** Every case: its group, name, documents. */
function cases() {
  const out = [];
  for (const group of readdirSync(framework).sort()) {
    if (only && group !== only) continue;
    const dir = join(framework, group);
    let files;
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const f of files.sort()) {
      if (!f.endsWith(".scxml")) continue;
      const stem = f.slice(0, -".scxml".length);
      const json = join(dir, `${stem}.json`);
      if (!existsSync(json)) continue; // a document another case invokes or reads, not a case
      out.push({ group, name: `${group}/${stem}`, scxml: join(dir, f), json });
    }
  }
  return out;
}

/** Why a case is skipped, or undefined: listed by name, or by a pattern of its document. */
function skipReason(c, text) {
  if (skips.cases[c.name]) return skips.cases[c.name];
  for (const p of skips.patterns) {
    if (new RegExp(p.match).test(text)) return p.reason;
  }
  return undefined;
}

function run(cmd, argv) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const sameSet = (a, b) => a.length === b.length && [...new Set(a)].every((x) => b.includes(x));

async function runCase(c, scratch) {
  const spec = JSON.parse(readFileSync(c.json, "utf8"));
  const lines = [];
  const expected = [spec.initialConfiguration];
  const prefixes = [0];
  for (const step of spec.events ?? []) {
    if (step.after) lines.push(JSON.stringify({ after: step.after }));
    const ev = { type: step.event.name };
    if (step.event.data !== undefined) ev.data = step.event.data;
    lines.push(JSON.stringify(ev));
    prefixes.push(lines.length);
    expected.push(step.nextConfiguration);
  }
  const events = join(scratch, `${c.name.replaceAll("/", "__")}.jsonl`);
  // One run of the whole script: the configuration after the initial step is its first line, and
  // after the i-th event the line of that event (not a line of an event the machine sent itself,
  // `"queued": true`, nor of a timer, `"timer": ID`: those come when the run is idle, after it).
  writeFileSync(events, lines.join("\n") + "\n");
  const r = await run(jr2, ["sim", c.scxml, "--events", events]);
  let printed;
  try {
    printed = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  } catch {
    return { pass: false, cause: `jr2 printed no step (exit ${r.code}): ${firstLine(r.stderr)}`, faults: faults(r.stderr) };
  }
  const scripted = printed.filter((l, k) => k === 0 || (!l.queued && l.timer === undefined));
  for (let i = 0; i < expected.length; i++) {
    const line = scripted[i];
    if (!line) {
      return { pass: false, cause: `jr2 printed no step for event ${i} (exit ${r.code}): ${firstLine(r.stderr)}`, faults: faults(r.stderr), at: i };
    }
    if (line.status === "error") {
      return { pass: false, cause: `the run ended in error: ${line.error?.reason ?? line.error ?? ""}`, faults: faults(r.stderr), at: i };
    }
    if (!sameSet(line.configuration, expected[i])) {
      const when = i === 0 ? "initially" : `after event ${i} (${spec.events[i - 1].event.name})`;
      return {
        pass: false,
        cause: `${when}: [${line.configuration.join(", ")}], expected [${expected[i].join(", ")}]`,
        faults: faults(r.stderr),
        at: i,
      };
    }
  }
  return { pass: true };
}

const firstLine = (s) => s.trim().split("\n")[0] ?? "";
const faults = (stderr) =>
  stderr
    .split("\n")
    .filter((l) => / (warning|error): /.test(l))
    .map((l) => l.replace(/^.*?: (warning|error): /, ""));

async function main() {
  const all = cases();
  const scratch = mkdtempSync(join(tmpdir(), "jr2-scxml-"));
  const results = new Map();
  const queue = [...all];
  async function worker() {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const text = readFileSync(c.scxml, "utf8");
      const reason = skipReason(c, text);
      results.set(c.name, reason ? { skipped: reason } : await runCase(c, scratch));
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  rmSync(scratch, { recursive: true, force: true });

  // The table: one row per group, the W3C group apart.
  const groups = new Map();
  for (const c of all) {
    const r = results.get(c.name);
    const g = groups.get(c.group) ?? { cases: 0, passed: 0, failed: 0, skipped: 0 };
    g.cases++;
    if (r.skipped) g.skipped++;
    else if (r.pass) g.passed++;
    else g.failed++;
    groups.set(c.group, g);
  }
  const sum = (pred) =>
    [...groups].filter(([name]) => pred(name)).reduce(
      (t, [, g]) => ({ cases: t.cases + g.cases, passed: t.passed + g.passed, failed: t.failed + g.failed, skipped: t.skipped + g.skipped }),
      { cases: 0, passed: 0, failed: 0, skipped: 0 },
    );
  const isW3c = (name) => name.startsWith("w3c");
  const rows = [["group", "cases", "passed", "failed", "skipped"]];
  for (const [name, g] of groups) rows.push([name, g.cases, g.passed, g.failed, g.skipped]);
  const w3c = sum(isW3c);
  const other = sum((n) => !isW3c(n));
  const total = sum(() => true);
  rows.push(["**SCION (not W3C)**", other.cases, other.passed, other.failed, other.skipped]);
  rows.push(["**W3C**", w3c.cases, w3c.passed, w3c.failed, w3c.skipped]);
  rows.push(["**all**", total.cases, total.passed, total.failed, total.skipped]);
  const table = rows.map((r) => `| ${r.join(" | ")} |`);
  table.splice(1, 0, "| --- | ---: | ---: | ---: | ---: |");
  console.log(table.join("\n"));
  console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped (W3C: ${w3c.passed} passed)`);

  const resultsPath = opt("--results");
  if (resultsPath) writeFileSync(resultsPath, JSON.stringify(Object.fromEntries(results), null, 2) + "\n");

  const passing = all.filter((c) => results.get(c.name).pass).map((c) => c.name);
  const bless = opt("--bless");
  if (bless) writeFileSync(bless, passing.join("\n") + "\n");

  const doc = opt("--doc");
  if (doc) {
    const skipped = all.filter((c) => results.get(c.name).skipped);
    const failed = all.filter((c) => !results.get(c.name).skipped && !results.get(c.name).pass);
    const failure = (r) => [r.cause, ...(r.faults ?? []).slice(0, 1)].join("; the front end: ");
    const version = JSON.parse(readFileSync(join(framework, "../package.json"), "utf8")).version;
    const text = `# SCXML conformance

The W3C SCXML 1.0 conformance tests (ECMAScript data model) and SCION's own, as the npm package
\`@scion-scxml/test-framework\` ${version} ships them, run through jr2's SCXML front end
(\`compiler/scxml\`) and the runtime's core (\`jr2 sim\`). A case passes only when the full
configuration (its active atomic states, as a set of ids) after the initial step and after each
of its events is the expected one. Made by:

\`\`\`sh
tests/scxml/run.sh --doc docs/conformance.md
\`\`\`

${table.join("\n")}

The reference point: xstate 5's own test suite runs 169 of these cases (66 of the W3C ones),
checking only the first expected configuration.

## Skipped cases

Each is outside xstate v5's semantics or the IR, for the reason given (\`tests/scxml/skips.json\`).

${skipped.map((c) => `- \`${c.name}\`: ${results.get(c.name).skipped}`).join("\n")}

## Failing cases

Each with what the run showed (and the front end's first fault, where it has one), and why
(\`tests/scxml/skips.json\`, \`failing\`).

${failed.map((c) => `- \`${c.name}\`: ${failure(results.get(c.name))}${skips.failing?.[c.name] ? `. Why: ${skips.failing[c.name]}` : ""}`).join("\n")}
`;
    writeFileSync(doc, text);
  }

  const check = opt("--check");
  if (check) {
    const listed = readFileSync(check, "utf8").split("\n").map((s) => s.trim()).filter(Boolean);
    const lost = listed.filter((name) => !results.get(name)?.pass);
    if (lost.length) {
      console.error(`\n${lost.length} case(s) of ${relative(process.cwd(), check)} no longer pass:`);
      for (const name of lost) console.error(`  ${name}: ${results.get(name)?.cause ?? results.get(name)?.skipped ?? "not run"}`);
      process.exit(1);
    }
    console.log(`every one of the ${listed.length} listed passes still passes`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
