// route: `route` with an action.
import { setup } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "app",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "home",
  states: { home: { on: { open: "settings" } }, settings: { id: "settings", route: { actions: "track" } } },
});
