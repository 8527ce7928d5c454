// escaped dots: a key path whose last key has a dot, after 500 ms.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "esc",
  initial: "foo.bar",
  states: {
    "foo.bar": { after: { "500": "foo.deep\\.er" } },
    "baz.qux": { id: "baz.qux" },
    foo: { id: "foo", initial: "bar", states: { bar: {}, "deep.er": {} } },
    outer: { initial: "a.b", states: { "a.b": {}, c: {} } },
  },
});
