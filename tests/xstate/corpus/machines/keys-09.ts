// keys: a wide state (twelve children) with a transition from each to the next.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "wide",
  initial: "s0",
  states: {
    s0: { on: { next: "s1" } },
    s1: { on: { next: "s2" } },
    s2: { on: { next: "s3" } },
    s3: { on: { next: "s4" } },
    s4: { on: { next: "s5" } },
    s5: { on: { next: "s6" } },
    s6: { on: { next: "s7" } },
    s7: { on: { next: "s8" } },
    s8: { on: { next: "s9" } },
    s9: { on: { next: "s10" } },
    s10: { on: { next: "s11" } },
    s11: { type: "final" },
  },
});
