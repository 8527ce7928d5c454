// route: `route` with `reenter`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "app",
  initial: "home",
  states: { home: { on: { open: "settings" } }, settings: { id: "settings", route: { reenter: true } } },
});
