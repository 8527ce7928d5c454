// meta: `tags` on states of a parallel state and its regions.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "par-tags",
  type: "parallel",
  states: {
    net: {
      tags: "net",
      initial: "up",
      states: {
        up: { tags: ["online"], on: { drop: "down" } },
        down: { tags: ["offline"], on: { recover: "up" } },
      },
    },
    ui: { initial: "shown", states: { shown: { tags: "visible" } } },
  },
});
