// keys: a Machine id with a dash, `#machine-id.path` targets.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "my-app",
  initial: "a",
  states: {
    a: { initial: "x", states: { x: { on: { go: "#my-app.b" } } } },
    b: { on: { go: "#my-app.a.x" } },
  },
});
