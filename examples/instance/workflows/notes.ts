// A Chart wrapper: its Open body slot `plan` lends the wrapper's own parts to a Chart. The named
// Charts of `workflows/notes/` (run as "notes/<chart>") are checked against this declaration.
import { z } from "zod";
import { agent, command, defineEvent, fail, http, jr2Setup, open } from "@jr2/orchestrator";

const done = defineEvent({
  name: "done",
  description: "Call this when the draft is ready.",
  input: z.object({}),
});

export const machine = jr2Setup({
  types: {} as { context: { topic: string }; input: { topic: string } },
  events: [done],
  actors: {
    writer: agent({
      model: "anthropic/claude-haiku-5-5",
      instructions: "You write release notes.",
      workspace: "none",
    }),
    tests: command(["npm", "test"]),
    post: http({
      method: "POST",
      url: "https://hooks.example.com/notes",
      input: z.object({ text: z.string() }),
    }),
    plan: open(
      {
        lends: { agents: ["writer"], effects: ["tests", "post"], guards: ["approved"], gate: true, fail: true },
        allows: { models: ["anthropic/claude-haiku-5-5"], workspace: ["none", "read"] },
        ceilings: { turns: 12, wallClock: "30m", transitions: 500, fanOut: 2, size: 65536 },
      },
      { input: z.object({ topic: z.string() }) },
    ),
    fail: fail(),
  },
  guards: {
    approved: ({ event }) => event.ok === true,
  },
}).createMachine({
  id: "notes",
  context: ({ input }) => input,
  on: { "agent.fault": ".failed" },
  initial: "planning",
  states: {
    planning: {
      invoke: { src: "plan", input: ({ context }) => ({ topic: context.topic }), onDone: "done" },
    },
    done: { type: "final" },
    failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } },
  },
});
