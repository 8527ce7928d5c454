// impl: `createMachine(config, { delays })` for a named delay.
import { createMachine } from "xstate";

export const machine = createMachine(
  {
    id: "impl-delays",
    initial: "a",
    states: { a: { after: { long: "b" } }, b: { after: { short: "a" } } },
  },
  { delays: { long: 5000, short: 100 } },
);
