// realistic: a form wizard (steps, back and next, a history to resume, submit with an invoke).
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value) } }).createMachine({
  id: "wizard",
  initial: "editing",
  states: {
    editing: {
      initial: "name",
      states: {
        name: { on: { next: "address" } },
        address: { on: { next: "payment", back: "name" } },
        payment: { on: { back: "address", submit: "#wizard.submitting" } },
        resume: { type: "history" },
      },
      on: { help: "help" },
    },
    help: { on: { close: "editing.resume" } },
    submitting: { invoke: { src: "saver", input: { value: 1 }, onDone: "done", onError: "editing.payment" } },
    done: { type: "final" },
  },
});
