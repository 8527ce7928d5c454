// parallel: a parallel root with two regions.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "proot",
  type: "parallel",
  states: {
    bold: { initial: "off", states: { off: { on: { bold: "on" } }, on: { on: { bold: "off" } } } },
    italic: { initial: "off", states: { off: { on: { italic: "on" } }, on: { on: { italic: "off" } } } },
  },
});
