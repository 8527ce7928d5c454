// events: the root's `on` with a `.child` target, shadowed by a child's `on` of the same event.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { reset: assign({ retries: 0 }) } }).createMachine({
  id: "shadow",
  context: { ready: false, retries: 0, role: "user", items: [] },
  on: { reset: ".a", go: ".b" },
  initial: "a",
  states: { a: { on: { go: "c" } }, b: {}, c: {} },
});
