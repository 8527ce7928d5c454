// route: nested states with routes, and one without an id.
import { setup } from "xstate";

export const machine = setup({ guards: { hasItems: ({ context }) => context.items.length > 0 } }).createMachine({
  id: "nav",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "home",
  states: {
    home: { id: "home", route: {} },
    shop: {
      initial: "list",
      states: {
        list: { id: "list", route: {} },
        item: { id: "item", route: { guard: "hasItems" } },
        cart: { route: {} },
      },
    },
  },
});
