// after: integer-like delay keys written out of order (JavaScript orders them ascending).
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100 } }).createMachine({
  id: "order",
  initial: "s",
  states: { s: { after: { "2000": "b", "500": "a", short: "c" } }, a: {}, b: {}, c: {} },
});
