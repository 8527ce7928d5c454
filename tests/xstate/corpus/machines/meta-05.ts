// meta: `entry` and `exit` actions by name.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { track: () => {}, reset: assign({ retries: 0 }) } }).createMachine({
  id: "meta",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "main",
  states: {
    main: { entry: "track", exit: ["reset", "track"], on: { finish: "done" } },
    done: { type: "final" },
  },
});
