// done: an invoke of a child machine.
import { createMachine, setup } from "xstate";

const child = createMachine({
  id: "child",
  initial: "running",
  states: {
    running: { on: { stop: "done" } },
    done: { type: "final" },
  },
});

export const machine = setup({ actors: { child: child } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: { invoke: { src: "child", id: "kid", onDone: "ok" }, on: { cancel: "failed" } },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
