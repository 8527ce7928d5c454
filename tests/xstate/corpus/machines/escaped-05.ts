// escaped dots: `#foo.bar` where a state has the id `foo` with a child `bar`, on `go`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "esc",
  initial: "foo.bar",
  states: {
    "foo.bar": { on: { go: "#foo.bar" } },
    "baz.qux": { id: "baz.qux" },
    foo: { id: "foo", initial: "bar", states: { bar: {}, "deep.er": {} } },
    outer: { initial: "a.b", states: { "a.b": {}, c: {} } },
  },
});
