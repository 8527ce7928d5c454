// events: a partial wildcard `user.*`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: {
    main: { on: { "user.*": "other", "user.login": "main" } },
    other: { on: { back: "main" } },
    third: {},
  },
});
