// A Workflow that runs to `done` with no model and no network: a command, a timer and a Gate.
// `jr2 run release-check --input '{"version":"1.2.0"}'` starts it; it asks git for its version,
// waits a second, and then waits at the `reviewer` Gate, which `jr2 answer RUN reviewer approve`
// (or `reject --payload '{"reason":"..."}'`) answers.
import { z } from "zod";
import { assign } from "xstate";
import { command, defineEvent, fail, jr2Setup } from "@jr2/orchestrator";

const approve = defineEvent({
  name: "approve",
  description: "Release this version.",
  input: z.object({}),
});

const reject = defineEvent({
  name: "reject",
  description: "Do not release this version, and say why.",
  input: z.object({ reason: z.string() }),
});

type Context = { version: string; git: unknown; approved: boolean };

export const machine = jr2Setup({
  types: {} as { context: Context; input: { version: string } },
  // The door: what `POST /workflows/release-check/runs` (and `jr2 run --input`) takes.
  schemas: { input: z.object({ version: z.string() }) },
  events: [approve, reject],
  actors: {
    // A plain program on every machine with git; no shell. At most once: a restore that finds
    // it unsettled gives it `{ outcome: "unknown" }`, which `onDone` routes as any outcome.
    git: command(["git", "--version"]),
    fail: fail(),
  },
}).createMachine({
  id: "release-check",
  context: ({ input }) => ({ version: input.version, git: null, approved: false }),
  // The run's output, made when it reaches `released`.
  output: ({ context }) => ({ version: context.version, approved: context.approved, git: context.git }),
  initial: "probing",
  states: {
    probing: {
      invoke: {
        src: "git",
        onDone: { target: "settling", actions: assign({ git: ({ event }) => event.output }) },
      },
    },
    // A second for the tools to settle: a timer the host keeps across a restart.
    settling: { after: { 1000: "review" } },
    review: {
      invoke: { src: "gate", id: "reviewer" },
      on: {
        approve: { target: "released", actions: assign({ approved: true }) },
        reject: "rejected",
      },
    },
    released: { type: "final" },
    // A person's `reject` ends the run: a Failure with their reason (ADR-0073), never `done`.
    rejected: {
      invoke: { src: "fail", input: ({ event }) => ({ reason: `rejected at review: ${event.reason}` }) },
    },
  },
});
