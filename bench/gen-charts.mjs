// Generates N Charts of about S states each, all admitted by the door under bench/lends.json.
// usage: node gen-charts.mjs OUT_DIR [N=2000] [STATES=60]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [out, n = "2000", states = "60"] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
let seed = 42;
const rand = (k) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % k);

function chart(i, size) {
  const events = {
    done: { description: "The step is done.", input: { type: "object", properties: { note: { type: "string", maxLength: 200 } }, required: [] } },
    answer: { description: "A person's answer.", audience: "external",
              input: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
  };
  const agents = { critic: { model: "anthropic/claude-haiku-5-5", instructions: "You critique drafts.", workspace: "none" } };
  const phases = Math.max(1, Math.floor((size - 1) / 6));
  const top = {};
  for (let p = 0; p < phases; p++) {
    const next = p + 1 < phases ? `phase${p + 1}` : "published";
    const author = rand(2) ? "writer" : "critic";
    const inner = {
      draft: {
        invoke: { src: author, input: { prompt: `Draft part ${p} of {{input.topic}}, round {{context.round}}.` } },
        on: { done: [{ guard: { type: "jr2.sentBy", params: { id: author } }, target: "test" }, { target: "test" }] },
      },
      test: {
        invoke: { src: "tests", onDone: [{ guard: "green", target: "review" }, { target: "draft", reenter: true }] },
      },
      review: {
        invoke: [{ src: "gate", id: `editor${p}` }],
        on: { answer: [{ guard: "approved", target: "post", actions: [{ assign: { round: { $ref: "event.ok" } } }] }, { target: "draft" }] },
        after: { "30m": "post", soon: "review" },
      },
      post: { invoke: { src: "post", input: { text: "Part {{context.round}} is ready." }, onDone: "done", onError: [{ guard: "jr2.failure", target: "done" }, { target: "done" }] } },
      done: { type: "final" },
    };
    top[`phase${p}`] = { initial: "draft", states: inner, onDone: next, entry: "note" };
  }
  top.published = { type: "final" };
  return { id: `chart-${i}`, initial: "phase0", context: { round: 0 }, events, agents, states: top };
}

for (let i = 0; i < Number(n); i++) {
  writeFileSync(join(out, `chart-${String(i).padStart(4, "0")}.json`), JSON.stringify(chart(i, Number(states)), null, 2));
}
console.error(`wrote ${n} Charts to ${out}`);
