// meta: the root's `tags`, `meta` and `description`, and a context factory.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "root-meta",
  context: ({ input }) => ({ ready: false, retries: 0, role: "user", items: [] }),
  tags: ["root"],
  meta: { owner: "corpus" },
  description: "the root",
  initial: "a",
  states: { a: { tags: "first", on: { next: "b" } }, b: { tags: ["second", "last"] } },
});
