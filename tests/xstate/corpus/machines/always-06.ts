// always: an `always` to `#id`, in a transient state.
import { setup } from "xstate";

export const machine = setup({ guards: { hasItems: ({ context }) => context.items.length > 0 } }).createMachine({
  id: "transient",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "check",
  states: {
    check: { always: { guard: "hasItems", target: "#admin-state" } },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
