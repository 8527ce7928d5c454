// route: a route whose state's key has a dot and whose id has a dash.
import { setup } from "xstate";

export const machine = setup({}).createMachine({ id: "dot-route", initial: "a", states: { a: {}, "b.c": { id: "b-c", route: {} } } });
