// events: a targetless transition with actions.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }), track: () => {} } }).createMachine({
  id: "ev",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "main",
  states: {
    main: { on: { poke: { actions: ["bump", "track"] } } },
    other: { on: { back: "main" } },
    third: {},
  },
});
