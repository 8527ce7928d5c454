// escaped dots: a child whose key has a dot (`.a\\.b`), on `go`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "esc",
  initial: "foo.bar",
  states: {
    "foo.bar": {},
    "baz.qux": { id: "baz.qux" },
    foo: { id: "foo", initial: "bar", states: { bar: {}, "deep.er": {} } },
    outer: { initial: "a.b", states: { "a.b": {}, c: {} }, on: { go: ".a\\.b" } },
  },
});
