// escaped dots: back to the initial state `foo.bar` by its escaped key, after 500 ms.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "esc",
  initial: "foo.bar",
  states: {
    "foo.bar": {},
    "baz.qux": { id: "baz.qux", after: { "500": "foo\\.bar" } },
    foo: { id: "foo", initial: "bar", states: { bar: {}, "deep.er": {} } },
    outer: { initial: "a.b", states: { "a.b": {}, c: {} } },
  },
});
