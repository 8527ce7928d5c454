// keys: a compound state whose `initial` is written after `states`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({ id: "late-initial", states: { b: { on: { go: "a" } }, a: {} }, initial: "a" });
