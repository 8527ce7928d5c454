// events: a targetless transition with an inline action.
import { assign, setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: {
    main: { on: { poke: { actions: assign({ ready: true }) } } },
    other: { on: { back: "main" } },
    third: {},
  },
});
