// impl: `createMachine(config)` with no implementations and no `src` (plain states only).
import { createMachine } from "xstate";

export const machine = createMachine({ id: "plain", initial: "a", states: { a: { on: { go: "b" } }, b: { on: { go: "a" } } } });
