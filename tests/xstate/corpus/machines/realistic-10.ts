// realistic: a document workflow (route, tags, meta, description, history).
import { setup } from "xstate";

export const machine = setup({ guards: { isAdmin: ({ context }) => context.role === "admin" } }).createMachine({
  id: "doc",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "draft",
  states: {
    draft: { id: "draft", route: {}, tags: "editable", on: { submit: "review" } },
    review: {
      id: "review",
      route: { guard: "isAdmin" },
      initial: "pending",
      meta: { title: "Review" },
      states: {
        pending: { on: { approve: "approved", reject: "#draft" } },
        approved: { type: "final" },
        h: { type: "history" },
      },
      onDone: "published",
    },
    published: { type: "final", description: "visible to everyone" },
  },
});
