// The caller of the dispatch pair: it reads a ticket over MCP, comments on it over HTTP, and
// starts a run of `fix-tests` (a Workflow of this Instance, named as `jr2 run` names it).
import { z } from "zod";
import { agent, bearer, defineEvent, dispatch, fail, fromPick, http, jr2Setup, mcp, secret } from "@jr2/orchestrator";

const postComment = defineEvent({
  name: "post_comment",
  description: "Post a comment on the ticket.",
  input: z.object({ body: z.string() }),
});

const fixIt = defineEvent({
  name: "fix_it",
  description: "Start a run that fixes the failing tests of this ticket.",
  input: z.object({}),
});

export const machine = jr2Setup({
  types: {} as { context: { ticket: string }; input: { ticket: string } },
  events: [postComment, fixIt],
  actors: {
    triager: agent({
      model: "anthropic/claude-haiku-5-5",
      instructions: "You triage tickets.",
      workspace: "none",
    }),
    lookup: mcp({ server: "tickets", tool: "get" }),
    comment: http({
      method: "POST",
      url: "https://jira.example.com/rest/api/2/issue",
      auth: bearer(secret("jira")),
      input: z.object({ ticket: z.string(), body: z.string() }),
      request: ({ ticket, body }) => ({ path: [ticket, "comment"], json: { body } }),
    }),
    fix: dispatch("fix-tests", { input: z.object({ ticket: z.string() }) }),
    fail: fail(),
  },
}).createMachine({
  id: "triage",
  context: ({ input }) => input,
  on: { "agent.fault": ".failed" },
  initial: "reading",
  states: {
    reading: {
      invoke: {
        src: "lookup",
        input: ({ context }) => ({ id: context.ticket }),
        onDone: "triaging",
      },
    },
    triaging: {
      invoke: {
        src: "triager",
        input: ({ context }) => ({ prompt: `Read ticket ${context.ticket}; comment on it, or have it fixed.` }),
      },
      initial: "ready",
      states: {
        ready: { on: { post_comment: "posting", fix_it: "fixing" } },
        posting: {
          invoke: {
            src: "comment",
            input: fromPick(postComment, ({ context }) => ({ ticket: context.ticket })),
            onDone: "#done",
          },
        },
        fixing: {
          invoke: {
            src: "fix",
            input: ({ context }) => ({ ticket: context.ticket }),
            onDone: "#done",
          },
        },
      },
    },
    done: { id: "done", type: "final" },
    failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } },
  },
});
