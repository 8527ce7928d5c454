// spawn: `assign` with `spawn` of a child machine with an id.
import { assign, createMachine, setup } from "xstate";

const child = createMachine({
  id: "child",
  initial: "running",
  states: {
    running: { on: { stop: "done" } },
    done: { type: "final" },
  },
});

export const machine = setup({ actors: { child: child } }).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: assign({ ref: ({ spawn }) => spawn("child", { id: "kid" }) }), on: { stop: "idle" } },
  },
});
