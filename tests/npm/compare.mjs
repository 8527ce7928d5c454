// The npm package, installed from its tarballs into a fresh project (the current folder), against
// the cargo-built `jr2`: `npx --no jr2 ...` exits and prints as the binary does, and the Node API
// returns the diagnostics of the binary's `--format json`. Run by tests/npm/run.sh.
// usage: node compare.mjs REPO JR2   (in the project that installed @jr2/jr2c)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const [repo, jr2] = process.argv.slice(2);
const app = process.cwd();
const api = createRequire(join(app, "package.json"))("@jr2/jr2c");

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: app, encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.error, undefined, `${cmd} ${args.join(" ")}: ${r.error}`);
  return r;
};
const cli = (...args) => run(jr2, args);
const npx = (...args) => run("npx", ["--no", "--", "jr2", ...args]);
/** `--format json`'s document, as the Node API's report holds it. */
const doc = (report) => ({ diagnostics: report.diagnostics, summary: report.summary });
const dirs = (dir) => readdirSync(dir).map((n) => join(dir, n)).filter((p) => statSync(p).isDirectory());

const example = join(repo, "examples/instance");
const instances = [example, ...dirs(join(repo, "compiler/check/tests/fixtures/instance")).flatMap(dirs)];

test("npx --no jr2 is the native binary: arguments, stdout, stderr and exit code", () => {
  for (const args of [["check", example], ["check", example, "--format", "json"], ["--version"], ["explain", "json-syntax"], ["check", "/no/such/path"]]) {
    const [a, b] = [npx(...args), cli(...args)];
    assert.equal(a.status, b.status, `jr2 ${args.join(" ")}: exit ${a.status}, the binary's ${b.status}`);
    assert.equal(a.stdout, b.stdout, `jr2 ${args.join(" ")}`);
    assert.equal(a.stderr, b.stderr, `jr2 ${args.join(" ")}`);
  }
  const refused = instances.find((dir) => cli("check", dir, "--offline").status === 1);
  assert.ok(refused, "a fixture Instance is refused");
  assert.equal(npx("check", refused, "--offline").status, 1);
});

test("checkInstance returns `jr2 check DIR --format json`'s diagnostics and its exit code", () => {
  let refused = 0;
  for (const dir of instances) {
    const b = cli("check", dir, "--offline", "--format", "json");
    const report = api.checkInstance(dir, { offline: true });
    assert.deepEqual(doc(report), JSON.parse(b.stdout), dir);
    assert.equal(report.exitCode, b.status, dir);
    refused += b.status === 1;
  }
  assert.ok(refused >= 5 && refused < instances.length, `${refused} of ${instances.length} refused`);
  // Reading foreign doors (no --offline) is the binary's too: here no host answers.
  const b = cli("check", example, "--format", "json");
  assert.deepEqual(doc(api.checkInstance(example)), JSON.parse(b.stdout));
  assert.throws(() => api.checkInstance(join(repo, "grammar")), /is not an Instance folder/);
  assert.throws(() => api.checkInstance("/no/such/dir"), /is not an Instance folder/);
});

// The door's fixtures: each Chart with its comment lines (expectations) taken out, against the
// lend manifest its `// lends:` line names (`lends.json` without one; `none`: no manifest).
const doorDir = join(repo, "compiler/check/tests/fixtures/door");
const charts = dirs(doorDir).flatMap((dir) =>
  readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .map((n) => {
      const text = readFileSync(join(dir, n), "utf8");
      const lends = /^\s*\/\/ lends: (\S+)/m.exec(text)?.[1] ?? "lends.json";
      const chart = text.split("\n").filter((l) => !/^\s*\/\//.test(l)).join("\n");
      return { name: `${dir.split("/").pop()}-${n}`, chart, lends: lends === "none" ? undefined : join(doorDir, lends) };
    }),
);
const scratch = mkdtempSync(join(tmpdir(), "jr2-npm-charts-"));
for (const c of charts) {
  c.file = join(scratch, c.name);
  writeFileSync(c.file, c.chart);
}

test("admitChart returns `jr2 chart check --format json`'s diagnostics, and the door's lines", () => {
  let admitted = 0;
  for (const [i, c] of charts.entries()) {
    const b = c.lends ? cli("chart", "check", c.file, "--lends", c.lends, "--format", "json") : cli("check", c.file, "--format", "json");
    const lendsText = c.lends && readFileSync(c.lends, "utf8");
    // The manifest as its text, or (every other Chart) as the object.
    const lends = lendsText && (i % 2 ? JSON.parse(lendsText) : lendsText);
    const a = api.admitChart(c.chart, lends, { file: c.file });
    assert.deepEqual(doc(a), JSON.parse(b.stdout), c.name);
    assert.equal(a.admitted, b.status === 0, c.name);
    assert.deepEqual(a.lines, a.diagnostics.map((d) => d.message), c.name);
    admitted += a.admitted;
  }
  assert.ok(charts.length >= 40 && admitted > 3 && admitted < charts.length, `${admitted} of ${charts.length} admitted`);
  assert.equal(api.admitChart("{").admitted, false);
  assert.equal(api.admitChart("{").diagnostics[0].file, "<chart>");
  assert.throws(() => api.admitChart("{}", "{\"declaration\": 1}"), /bad lend manifest/);
});

test("admitChart reads a text of any characters as the CLI reads its file", () => {
  // The binding sizes its UTF-8 buffer from the string's UTF-16 length with room for a few
  // characters past ASCII, and reads a text that outgrows it again: both ways, and a surrogate
  // pair (4 bytes of UTF-8) and a lone surrogate (U+FFFD, as the file would hold it), give the
  // spans the CLI gives for the same text in a file.
  const texts = {
    "ascii.json": '{"states": {"a": {}}, "bad": ',
    "few.json": '{"description": "caf\u00e9 \u2014 na\u00efve", "states": {"a": {}}, "bad": ',
    "many.json": `{"description": "${"\u00e9".repeat(4000)}", "states": {"a": {}}, "bad": `,
    "astral.json": `{"description": "${"\u{1F600}".repeat(3000)}", "bad": 1, }`,
    "lone.json": '{"description": "\ud800", "bad": ',
  };
  for (const [name, text] of Object.entries(texts)) {
    const file = join(scratch, name);
    writeFileSync(file, text);
    const b = cli("check", file, "--format", "json");
    const a = api.admitChart(text, null, { file });
    assert.ok(a.diagnostics.length > 0, name);
    assert.deepEqual(doc(a), JSON.parse(b.stdout), name);
  }
});

test("checkFiles is `jr2 check PATH... --lends`", () => {
  const lends = join(doorDir, "lends.json");
  const files = charts.filter((c) => c.lends === lends).map((c) => c.file);
  const b = cli("check", ...files, join(repo, "examples/instance/workflows/notes.ts"), "--lends", lends, "--format", "json");
  const a = api.checkFiles([...files, join(repo, "examples/instance/workflows/notes.ts")], { lends: readFileSync(lends, "utf8") });
  assert.deepEqual(doc(a), JSON.parse(b.stdout));
  assert.equal(a.exitCode, b.status);
  assert.throws(() => api.checkFiles(["/no/such/file.json"]), /cannot read \/no\/such\/file.json/);
});

test("checkInstanceAsync and checkFilesAsync resolve to what the synchronous calls return", async () => {
  const lends = join(doorDir, "lends.json");
  const files = charts.filter((c) => c.lends === lends).map((c) => c.file);
  // Several at once, each on a worker thread.
  const pending = instances.map((dir) => api.checkInstanceAsync(dir, { offline: true }));
  assert.ok(pending.every((p) => p instanceof Promise));
  const reports = await Promise.all(pending);
  for (const [i, dir] of instances.entries()) assert.deepEqual(reports[i], api.checkInstance(dir, { offline: true }), dir);
  const opts = { lends: readFileSync(lends, "utf8"), denyWarnings: true };
  assert.deepEqual(await api.checkFilesAsync(files, opts), api.checkFiles(files, opts));
  // The synchronous calls' errors: at the call for a bad argument, as a rejection for a path.
  assert.throws(() => api.checkInstanceAsync("/no/such/dir"), /is not an Instance folder/);
  assert.throws(() => api.checkFilesAsync(files, { lends: "{\"declaration\": 1}" }), /bad lend manifest/);
  await assert.rejects(api.checkFilesAsync(["/no/such/file.json"]), /cannot read \/no\/such\/file.json/);
});

test("chartSchema, chartBriefing and compat are `jr2 schema chart|briefing|compat`", () => {
  const lends = join(doorDir, "lends.json");
  assert.deepEqual(api.chartSchema(), JSON.parse(cli("schema", "chart").stdout));
  assert.deepEqual(api.chartSchema(readFileSync(lends, "utf8")), JSON.parse(cli("schema", "chart", "--lends", lends).stdout));
  assert.equal(api.chartBriefing().trimEnd(), cli("schema", "briefing").stdout.trimEnd());
  assert.equal(api.chartBriefing(readFileSync(lends, "utf8")).trimEnd(), cli("schema", "briefing", "--lends", lends).stdout.trimEnd());
  const [slot, door] = ["slot.json", "door.json"].map((n) => join(repo, "tests/fixtures/compat", n));
  for (const [s, d] of [[slot, door], [slot, slot], [door, slot]]) {
    const b = cli("schema", "compat", "--slot", s, "--door", d, "--format", "json");
    const a = api.compat(readFileSync(s, "utf8"), readFileSync(d, "utf8"), { slotFile: s, doorFile: d });
    assert.deepEqual(doc(a), JSON.parse(b.stdout));
    assert.equal(a.exitCode, b.status);
  }
  assert.equal(api.compat({ type: "object" }, { type: "object" }).exitCode, 0);
  assert.throws(() => api.compat("[]", "{}"), /not a JSON Schema/);
});

test("the reference's example runs as written", () => {
  const md = readFileSync(join(repo, "docs/reference/node-api.md"), "utf8");
  const [, example, prints] = /```js\n([\s\S]*?)```\n\nIt prints:\n\n```text\n([\s\S]*?)```/.exec(md);
  const dir = join(app, "example");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "example.cjs"), example);
  const r = spawnSync("node", [join(dir, "example.cjs")], { cwd: repo, encoding: "utf8", env: { ...process.env, NODE_PATH: join(app, "node_modules") } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, prints);
});
