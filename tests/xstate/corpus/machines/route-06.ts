// route: `route` with an inline guard.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "app",
  initial: "home",
  states: {
    home: { on: { open: "settings" } },
    settings: { id: "settings", route: { guard: ({ context }) => context.ready } },
  },
});
