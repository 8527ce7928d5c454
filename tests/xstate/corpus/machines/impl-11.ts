// impl: `setup({}).createMachine(config).provide({ actors, delays })`.
import { fromCallback, setup } from "xstate";

export const machine = setup({})
  .createMachine({
    id: "empty-setup",
    initial: "a",
    states: { a: { invoke: { src: "ticker" }, after: { long: "b" } }, b: {} },
  })
  .provide({
    actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
    delays: { long: 5000 },
  });
