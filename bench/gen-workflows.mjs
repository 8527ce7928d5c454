// Generates N Workflows (TypeScript, jr2's kit) of about 150 lines each, modelled on the fixtures
// of tests/xstate/fixtures: jr2Setup with events (defineEvent + zod), actors (agent, command,
// worktree, http, fail), nested and parallel states, sentBy and and/not guards, input mappers
// with templates and paramsOf, fromPick with a fill, assign, after, and workspace(...) wrappers.
// Each file is self-contained (imports only "@jr2/orchestrator", "zod" and "xstate") and must
// compile with no error through jr2's front end (the `machines` bench counts them).
// usage: node gen-workflows.mjs OUT_DIR [N=1000]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [out, n = "1000"] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
let seed = 7;
const rand = (k) => ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 8) % k;
const pick = (xs) => xs[rand(xs.length)];

const MODELS = ["anthropic/claude-haiku-5-5", "anthropic/claude-sonnet-5", "openai/gpt-6-mini"];
const NOUNS = ["parser", "billing", "search", "auth", "docs", "cache", "queue", "ui", "api", "sync"];
const REPOS = ["app", "web", "core"];

function workflow(i) {
  const noun = pick(NOUNS);
  const repo = pick(REPOS);
  const wrapped = rand(3) !== 0;
  const withHttp = rand(2) === 0;
  const withParallel = rand(3) !== 0;
  const withLint = rand(2) === 0;
  const rounds = 2 + rand(4);
  const id = `wf-${noun}-${i}`;
  const kit = ["agent", "arg", "command", "defineEvent", "fail", "isFailure", "isReady", "jr2Setup", "paramsOf", "sentBy", "worktree"];
  if (withHttp) kit.push("bearer", "fromPick", "http", "secret");
  if (wrapped) kit.push("workspace", "type Workspaced");
  kit.sort((a, b) => a.replace("type ", "").localeCompare(b.replace("type ", "")));
  const L = [];
  const p = (s) => L.push(s);

  p(`// A generated Workflow (bench/gen-workflows.mjs): ${id}.`);
  p(`import { z } from "zod";`);
  p(`import { and, assign, not } from "xstate";`);
  p(`import { ${kit.join(", ")} } from "@jr2/orchestrator";`);
  p(``);
  p(`const runTest = defineEvent({`);
  p(`  name: "run_test",`);
  p(`  description: "Run the tests of one module of the ${noun} code.",`);
  p(`  input: z.object({`);
  p(`    module: z.string().min(1).max(${40 + rand(60)}).describe("the module's path, without .ts"),`);
  p(`    verbose: z.boolean().optional(),`);
  p(`  }),`);
  p(`});`);
  p(``);
  p(`const review = defineEvent({`);
  p(`  name: "review",`);
  p(`  description: "Give a verdict on the change.",`);
  p(`  input: z.object({`);
  p(`    verdict: z.enum(["approve", "revise", "reject"]),`);
  p(`    score: z.number().int().gte(0).lte(${5 + rand(6)}).default(3),`);
  p(`    note: z.string().optional().describe("why"),`);
  p(`  }),`);
  p(`  audience: "external",`);
  p(`});`);
  p(``);
  p(`const finished = defineEvent({`);
  p(`  name: "finished",`);
  p(`  description: "Say that the ${noun} work is done.",`);
  p(`  input: z.object({ summary: z.string().max(${200 + rand(800)}) }),`);
  p(`});`);
  if (withHttp) {
    p(``);
    p(`const postNote = defineEvent({`);
    p(`  name: "post_note",`);
    p(`  description: "Post a note on the ticket.",`);
    p(`  input: z.object({ text: z.string(), level: z.union([z.literal("info"), z.literal("warn")]) }),`);
    p(`});`);
  }
  p(``);
  const ctx = `{ ticket: string; round: number; summary?: string }`;
  if (wrapped) {
    p(`type Input = Workspaced<${ctx}, "${repo}">;`);
    p(``);
    p(`const tree = (context: Input) => \`\${context.workspace.repos.${repo}}/${noun}-${i}\` as const;`);
  } else {
    p(`type Input = ${ctx};`);
    p(``);
    p(`const tree = (context: Input) => \`/work/${noun}-${i}/\${context.ticket}\` as const;`);
  }
  p(``);
  p(`const ${wrapped ? "body" : "machine_"} = jr2Setup({`);
  p(`  types: {} as { context: Input; input: Input },`);
  p(`  events: [runTest, review, finished${withHttp ? ", postNote" : ""}],`);
  p(`  actors: {`);
  p(`    coder: agent({`);
  p(`      model: "${pick(MODELS)}",`);
  p(`      instructions: "You are a careful engineer on the ${noun} code.",`);
  p(`    }),`);
  p(`    critic: agent({`);
  p(`      model: "${pick(MODELS)}",`);
  p(`      instructions: "You review changes to the ${noun} code and say what is wrong.",`);
  p(`      workspace: "none",`);
  p(`    }),`);
  p(`    cut: worktree(),`);
  p(`    test: command(["node", "--test", arg("file")], { timeout: ${60 + rand(600)} }),`);
  if (withLint) p(`    lint: command(["npx", "eslint", "."]),`);
  if (withHttp) {
    p(`    note: http({`);
    p(`      method: "POST",`);
    p(`      url: "https://tickets.example.com/api/${noun}",`);
    p(`      auth: bearer(secret("tickets")),`);
    p(`      input: z.object({ ticket: z.string(), text: z.string(), level: z.string() }),`);
    p(`      request: ({ ticket, text, level }) => ({ path: [ticket, "notes"], json: { text, level } }),`);
    p(`    }),`);
  }
  p(`    fail: fail(),`);
  p(`  },`);
  p(`  guards: {`);
  p(`    moreRounds: ({ context }) => context.round < ${rounds},`);
  p(`  },`);
  p(`  delays: {`);
  p(`    patience: ${(1 + rand(30)) * 60_000},`);
  p(`  },`);
  p(`}).createMachine({`);
  p(`  id: "${id}",`);
  p(`  context: ({ input }) => input,`);
  p(`  on: { ${wrapped ? `"workspace.lost": ".lost", ` : ""}"agent.fault": ".failed" },`);
  p(`  initial: "cutting",`);
  p(`  states: {`);
  p(`    cutting: {`);
  p(`      invoke: {`);
  p(`        src: "cut",`);
  p(`        input: ({ context }) => ({ path: tree(context), branch: "${noun}-${i}" }),`);
  p(`        onDone: [{ guard: ({ event }) => isReady(event.output), target: "coding" }, { target: "notCut" }],`);
  p(`      },`);
  p(`    },`);
  p(`    coding: {`);
  p(`      invoke: {`);
  p(`        src: "coder",`);
  p(`        input: ({ context }) => ({`);
  p(`          prompt: \`Fix ticket \${context.ticket} in the ${noun} code, round \${context.round}.\`,`);
  p(`          cwd: tree(context),`);
  p(`        }),`);
  p(`      },`);
  p(`      on: {`);
  p(`        finished: {`);
  p(`          target: "checking",`);
  p(`          actions: assign({ round: ({ context }) => context.round, summary: ({ event }) => paramsOf(event, finished).summary }),`);
  p(`        },`);
  p(`      },`);
  p(`      initial: "ready",`);
  p(`      states: {`);
  p(`        ready: { on: { run_test: "testing"${withHttp ? `, post_note: "posting"` : ""} } },`);
  p(`        testing: {`);
  p(`          invoke: {`);
  p(`            src: "test",`);
  p(`            input: ({ context, event }) => ({`);
  p(`              file: \`test/\${paramsOf(event, runTest).module}.test.js\`,`);
  p(`              verbose: paramsOf(event, runTest).verbose,`);
  p(`              worktree: tree(context),`);
  p(`            }),`);
  p(`            onDone: "ready",`);
  p(`            onError: { guard: ({ event }) => isFailure(event.error), target: "#${id}.failed" },`);
  p(`          },`);
  p(`        },`);
  if (withHttp) {
    p(`        posting: {`);
    p(`          invoke: {`);
    p(`            src: "note",`);
    p(`            input: fromPick(postNote, ({ context }) => ({ ticket: context.ticket })),`);
    p(`            onDone: "ready",`);
    p(`          },`);
    p(`        },`);
  }
  p(`      },`);
  p(`    },`);
  if (withParallel) {
    p(`    checking: {`);
    p(`      type: "parallel",`);
    p(`      onDone: "reviewing",`);
    p(`      states: {`);
    p(`        tests: {`);
    p(`          initial: "running",`);
    p(`          states: {`);
    p(`            running: {`);
    p(`              invoke: {`);
    p(`                src: "test",`);
    p(`                input: ({ context }) => ({ file: "test/all.test.js", worktree: tree(context) }),`);
    p(`                onDone: "passed",`);
    p(`              },`);
    p(`            },`);
    p(`            passed: { type: "final" },`);
    p(`          },`);
    p(`        },`);
    p(`        ${withLint ? "lint" : "wait"}: {`);
    p(`          initial: "running",`);
    p(`          states: {`);
    if (withLint) p(`            running: { invoke: { src: "lint", onDone: "passed" } },`);
    else p(`            running: { after: { 1000: "passed" } },`);
    p(`            passed: { type: "final" },`);
    p(`          },`);
    p(`        },`);
    p(`      },`);
    p(`    },`);
  } else {
    p(`    checking: {`);
    p(`      invoke: {`);
    p(`        src: "test",`);
    p(`        input: ({ context }) => ({ file: "test/all.test.js", worktree: tree(context) }),`);
    p(`        onDone: "reviewing",`);
    p(`        onError: "coding",`);
    p(`      },`);
    p(`    },`);
  }
  p(`    reviewing: {`);
  p(`      invoke: [`);
  p(`        {`);
  p(`          src: "critic",`);
  p(`          input: ({ context }) => ({ prompt: \`Review the change for ticket \${context.ticket}.\` }),`);
  p(`        },`);
  p(`        { src: "gate", id: "lead" },`);
  p(`      ],`);
  p(`      on: {`);
  p(`        review: [`);
  p(`          { guard: and([sentBy("lead"), "moreRounds"]), target: "coding" },`);
  p(`          { guard: sentBy("critic"), target: "coding", reenter: true },`);
  p(`          { guard: not("moreRounds"), target: "done" },`);
  p(`          { target: "done" },`);
  p(`        ],`);
  p(`      },`);
  p(`      after: { patience: "#${id}.timedOut" },`);
  p(`    },`);
  p(`    done: { type: "final" },`);
  p(`    timedOut: { invoke: { src: "fail", input: { reason: "no review within the patience" } } },`);
  p(`    notCut: { invoke: { src: "fail", input: { reason: "the Worktree was not cut" } } },`);
  p(`    failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } },`);
  if (wrapped) p(`    lost: { invoke: { src: "fail", input: { reason: "the Sandbox is gone" } } },`);
  p(`  },`);
  p(`});`);
  p(``);
  if (wrapped) {
    p(`export const machine = workspace(body, {`);
    p(`  repos: { ${repo}: { url: "https://github.com/example/${repo}-${noun}.git" } },`);
    p(`});`);
  } else {
    p(`export const machine = machine_;`);
  }
  return L.join("\n") + "\n";
}

let lines = 0;
for (let i = 0; i < Number(n); i++) {
  const text = workflow(i);
  lines += text.split("\n").length - 1;
  writeFileSync(join(out, `wf-${String(i).padStart(4, "0")}.ts`), text);
}
console.error(`wrote ${n} Workflows (${Math.round(lines / Number(n))} lines each on average) to ${out}`);
