// escaped dots: `#foo\\.bar` where the ids `foo.bar` and `foo` (with a child `bar`) both exist, after 500 ms.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "clash",
  initial: "start",
  states: {
    start: { after: { "500": "#foo\\.bar" } },
    dotted: { id: "foo.bar" },
    foo: { id: "foo", initial: "other", states: { other: {}, bar: {} } },
  },
});
