// The callee of the dispatch pair: `triage` starts a run of this Workflow by its name.
// Effects: a Worktree cut, a command and a push, all in the Workflow's own Sandbox.
import { z } from "zod";
import {
  agent,
  command,
  defineEvent,
  fail,
  isReady,
  jr2Setup,
  push,
  workspace,
  worktree,
  type Workspaced,
} from "@jr2/orchestrator";

const runTests = defineEvent({
  name: "run_tests",
  description: "Run the test suite. Its result is this call's answer.",
  input: z.object({}),
});

const finished = defineEvent({
  name: "finished",
  description: "Say that the tests pass.",
  input: z.object({}),
});

type Input = Workspaced<{ ticket: string }, "app">;

const fixTree = (context: Input) => `${context.workspace.repos.app}/fix` as const;

const body = jr2Setup({
  types: {} as { context: Input; input: Input },
  // The door: what `POST /workflows/fix-tests/runs` takes. `triage`'s dispatch slot is checked against it.
  schemas: { input: z.object({ ticket: z.string() }) },
  events: [runTests, finished],
  actors: {
    coder: agent({
      model: "anthropic/claude-haiku-5-5",
      instructions: "You are a careful engineer.",
    }),
    cut: worktree({ expect: "new" }),
    tests: command(["npm", "test"]),
    publish: push({ force: false }),
    fail: fail(),
  },
}).createMachine({
  id: "fix-tests",
  context: ({ input }) => input,
  on: { "workspace.lost": ".lost", "agent.fault": ".failed" },
  initial: "cutting",
  states: {
    cutting: {
      invoke: {
        src: "cut",
        input: ({ context }) => ({ path: fixTree(context), branch: "fix-tests" }),
        onDone: [{ guard: ({ event }) => isReady(event.output), target: "coding" }, { target: "notCut" }],
      },
    },
    coding: {
      invoke: {
        src: "coder",
        input: ({ context }) => ({ prompt: `Make the tests pass for ${context.ticket}.`, cwd: fixTree(context) }),
      },
      on: { finished: "publishing" },
      initial: "ready",
      states: {
        ready: { on: { run_tests: "testing" } },
        testing: {
          invoke: {
            src: "tests",
            input: ({ context }) => ({ worktree: fixTree(context) }),
            onDone: "ready",
          },
        },
      },
    },
    publishing: {
      invoke: {
        src: "publish",
        input: ({ context }) => ({ worktree: fixTree(context) }),
        onDone: "done",
      },
    },
    done: { type: "final" },
    notCut: { invoke: { src: "fail", input: { reason: "the Worktree was not cut" } } },
    failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } },
    lost: { invoke: { src: "fail", input: { reason: "the Sandbox is gone" } } },
  },
});

export const machine = workspace(body, {
  repos: { app: { url: "https://github.com/you/app.git" } },
});
