// spawn: `spawnChild` in a transition's `actions`.
import { fromPromise, setup, spawnChild } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "action-spawn",
  initial: "a",
  states: { a: { on: { go: { target: "b", actions: spawnChild("fetcher", { id: "f" }) } } }, b: {} },
});
