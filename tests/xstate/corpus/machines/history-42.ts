// history: `history: "shallow"` without `type` with its own `id`, entered by `#resume` from two places.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value) } }).createMachine({
  id: "hist-id",
  initial: "editing",
  states: {
    editing: {
      initial: "text",
      states: {
        text: { on: { toggle: "image" } },
        image: { initial: "crop", states: { crop: { on: { next: "rotate" } }, rotate: {} } },
        back: { history: "shallow", id: "resume" },
      },
      on: { save: "saving" },
    },
    saving: { invoke: { src: "saver", input: { value: 1 }, onDone: "#resume", onError: "#resume" } },
  },
});
