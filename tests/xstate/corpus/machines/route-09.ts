// route: routes to a compound state and to its child.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "deep-route",
  initial: "a",
  states: {
    a: {},
    b: { id: "b", route: {}, initial: "b1", states: { b1: {}, b2: { id: "b2", route: {} } } },
  },
});
