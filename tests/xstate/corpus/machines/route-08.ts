// route: a route inside a parallel region, beside the root's own `on`.
import { setup } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "par-route",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  on: { ping: { actions: "track" } },
  states: {
    main: { initial: "a", states: { a: { id: "page-a", route: {} }, b: { id: "page-b", route: {} } } },
    side: { initial: "closed", states: { closed: {}, open: { id: "panel", route: {} } } },
  },
});
