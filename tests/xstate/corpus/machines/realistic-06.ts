// realistic: a text editor's toolbar (a parallel root, `stateIn` guards, `always`).
import { setup, stateIn } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "toolbar",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  states: {
    selection: {
      initial: "none",
      states: { none: { on: { select: "some" } }, some: { on: { clear: "none" } } },
    },
    format: {
      initial: "disabled",
      states: {
        disabled: { always: { guard: stateIn("#toolbar.selection.some"), target: "enabled" } },
        enabled: {
          always: { guard: stateIn("#toolbar.selection.none"), target: "disabled" },
          on: { bold: { actions: "track" } },
        },
      },
    },
  },
});
