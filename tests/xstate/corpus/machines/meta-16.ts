// meta: a Machine with no `id`, a `#id` target and a `.child` target from the root.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { reset: assign({ retries: 0 }) } }).createMachine({
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "a",
  on: { reset: ".a" },
  states: { a: { on: { go: "#far" } }, b: { initial: "c", states: { c: { id: "far" } } } },
});
