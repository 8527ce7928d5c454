// The load benchmark's Workflow (bench/load.sh): a start validates its input against the door,
// writes the run and its first snapshot, and the run waits at a Gate, live, as most runs of an
// Instance are.
import { z } from "zod";
import { defineEvent, jr2Setup } from "@jr2/orchestrator";

const go = defineEvent({ name: "go", description: "Let the run end.", input: z.object({}) });

export const machine = jr2Setup({
  types: {} as { context: { n: number }; input: { n: number } },
  schemas: { input: z.object({ n: z.number() }) },
  events: [go],
}).createMachine({
  id: "wait",
  context: ({ input }) => ({ n: input.n }),
  initial: "waiting",
  states: {
    waiting: { invoke: { src: "gate", id: "operator" }, on: { go: "done" } },
    done: { type: "final" },
  },
});
