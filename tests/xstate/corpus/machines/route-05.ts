// route: `route` on a state with no `id` (xstate ignores it).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "app",
  initial: "home",
  states: { home: { on: { open: "settings" } }, settings: { route: {} } },
});
