// parallel: a region with nested compound states, `onDone` in a region and the parallel state's `onDone`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "region-done",
  initial: "work",
  states: {
    work: {
      type: "parallel",
      onDone: "done",
      states: {
        upload: {
          initial: "sending",
          states: {
            sending: {
              initial: "chunk",
              states: { chunk: { on: { sent: "last" } }, last: { type: "final" } },
              onDone: "sent",
            },
            sent: { type: "final" },
          },
        },
        scan: {
          initial: "scanning",
          states: { scanning: { on: { clean: "ok" } }, ok: { type: "final" } },
        },
      },
    },
    done: { type: "final" },
  },
});
