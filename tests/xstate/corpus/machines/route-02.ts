// route: `route` with a guard.
import { setup } from "xstate";

export const machine = setup({ guards: { isAdmin: ({ context }) => context.role === "admin" } }).createMachine({
  id: "app",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "home",
  states: { home: { on: { open: "settings" } }, settings: { id: "settings", route: { guard: "isAdmin" } } },
});
