// meta: `entry` written inline.
import { assign, setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: { main: { entry: assign({ ready: true }), on: { finish: "done" } }, done: { type: "final" } },
});
