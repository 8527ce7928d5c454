// The crash soak's Workflow (tests/soak/main.rs writes it into a fresh Instance, its http url on
// the counting server's port): a command that appends the run's key to a file, a 200 ms timer
// whose transition counts itself in `fired`, a POST of the key to a local server, and a Gate.
// Every Effect's outcome, `{ outcome: "unknown" }` too (a kill lost it, ADR-0067), goes on
// through `onDone`, so every run can reach `done`.
import { z } from "zod";
import { assign } from "xstate";
import { arg, command, defineEvent, http, jr2Setup } from "@jr2/orchestrator";

const go = defineEvent({ name: "go", description: "Let the run end.", input: z.object({}) });

type Context = { key: string; file: string; fired: number; ran: unknown; hit: unknown };

export const machine = jr2Setup({
  types: {} as { context: Context; input: { key: string; file: string } },
  schemas: { input: z.object({ key: z.string(), file: z.string() }) },
  events: [go],
  actors: {
    // A pause, the line, a pause: so that kills land before, during and after the append.
    append: command(["/bin/sh", "-c", "sleep 0.05; echo \"$1\" >> \"$2\"; sleep 0.05", "sh", arg("key"), arg("file")]),
    hit: http({ method: "POST", url: "http://127.0.0.1:9/hit", input: z.object({ key: z.string() }) }),
  },
}).createMachine({
  id: "soak",
  context: ({ input }) => ({ key: input.key, file: input.file, fired: 0, ran: null, hit: null }),
  output: ({ context }) => context,
  initial: "appending",
  states: {
    appending: {
      invoke: {
        src: "append",
        input: ({ context }) => ({ key: context.key, file: context.file }),
        onDone: { target: "pausing", actions: assign({ ran: ({ event }) => event.output }) },
      },
    },
    pausing: {
      after: { 200: { target: "hitting", actions: assign({ fired: ({ context }) => context.fired + 1 }) } },
    },
    hitting: {
      invoke: {
        src: "hit",
        input: ({ context }) => ({ key: context.key }),
        onDone: { target: "waiting", actions: assign({ hit: ({ event }) => event.output }) },
      },
    },
    waiting: { invoke: { src: "gate", id: "approver" }, on: { go: "done" } },
    done: { type: "final" },
  },
});
