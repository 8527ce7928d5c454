// meta: a Machine with no `id` (xstate names it `(machine)`).
import { setup } from "xstate";

export const machine = setup({}).createMachine({ initial: "a", states: { a: { on: { go: "b" } }, b: { id: "bee", on: { back: "a" } } } });
