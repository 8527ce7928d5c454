// events: many events on one state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: {
    main: { on: { a: "other", b: "main", c: "third", d: { target: "other", reenter: true } } },
    other: { on: { back: "main" } },
    third: {},
  },
});
