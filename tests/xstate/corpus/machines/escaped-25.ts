// escaped dots: `#foo.bar` where the ids `foo.bar` and `foo` (with a child `bar`) both exist, on `go`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "clash",
  initial: "start",
  states: {
    start: { on: { go: "#foo.bar" } },
    dotted: { id: "foo.bar" },
    foo: { id: "foo", initial: "other", states: { other: {}, bar: {} } },
  },
});
