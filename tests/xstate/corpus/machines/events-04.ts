// events: an event name with spaces and dashes.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: {
    main: { on: { "pick up": "other", "put-down": "main" } },
    other: { on: { back: "main" } },
    third: {},
  },
});
