// keys: a key `states`, a key `on` and a key `id` as state keys.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta-keys",
  initial: "states",
  states: { states: { on: { go: "on" } }, on: { on: { go: "id" } }, id: {} },
});
