// route: a state with an `id` and `route: {}`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "app",
  initial: "home",
  states: { home: { on: { open: "settings" } }, settings: { id: "settings", route: {} } },
});
