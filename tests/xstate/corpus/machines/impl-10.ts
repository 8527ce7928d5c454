// impl: `createMachine(config, { actors })` with a child machine.
import { createMachine } from "xstate";

const child = createMachine({
  id: "child",
  initial: "running",
  states: {
    running: { on: { stop: "done" } },
    done: { type: "final" },
  },
});

export const machine = createMachine(
  {
    id: "impl-child",
    initial: "a",
    states: { a: { invoke: { src: "child", id: "kid", onDone: "b" } }, b: {} },
  },
  { actors: { child: child } },
);
