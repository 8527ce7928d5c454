// Writes one corpus machine as a readable TypeScript file: `export const machine = ...` built
// from the xstate v5 API, the way a person would write it. gen.mjs describes each machine as
// data; this turns the data into text.
//
// A machine description:
//   { name, about, prelude?, setup?: { actors, guards, delays, actions }, config,
//     form?: "setup" | "create" | "create-impl" | "setup-provide" | "create-provide",
//     impl?: { actors, guards, delays, actions } }
// Values: plain JSON, `code("...")` for text written as is (functions, calls), and
// `ordered([[key, value], ...])` for an object whose keys keep the written order in the text
// (JavaScript then orders integer-like keys first, as xstate sees them).

const CODE = Symbol("code");
const ORDERED = Symbol("ordered");

/** TypeScript text written as is. */
export const code = (text) => ({ [CODE]: text });
/** An object literal written with its keys in this order. */
export const ordered = (entries) => ({ [ORDERED]: entries });

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const keyText = (k) => (IDENT.test(k) ? k : JSON.stringify(k));
const WIDTH = 100;

/** A value as TypeScript: inline where it fits, else one entry a line. */
export function ts(v, indent = "") {
  if (v && typeof v === "object" && CODE in v) return v[CODE];
  const inner = indent + "  ";
  const wrap = (open, items, close) => {
    if (!items.length) return `${open}${close}`;
    const flat = `${open}${open === "{" ? " " : ""}${items.join(", ")}${open === "{" ? " " : ""}${close}`;
    if (!flat.includes("\n") && flat.length + indent.length <= WIDTH) return flat;
    return `${open}\n${items.map((i) => inner + i).join(",\n")},\n${indent}${close}`;
  };
  if (Array.isArray(v)) return wrap("[", v.map((x) => ts(x, inner)), "]");
  if (v && typeof v === "object") {
    const entries = ORDERED in v ? v[ORDERED] : Object.entries(v);
    const items = entries.filter(([, x]) => x !== undefined).map(([k, x]) => `${keyText(k)}: ${ts(x, inner)}`);
    return wrap("{", items, "}");
  }
  return JSON.stringify(v);
}

const XSTATE_NAMES = [
  "and",
  "assign",
  "createMachine",
  "fromCallback",
  "fromPromise",
  "not",
  "or",
  "raise",
  "setup",
  "spawnChild",
  "stateIn",
];

const hasAny = (o) => o && Object.values(o).some((v) => v !== undefined);
const clean = (o) => (o ? Object.fromEntries(Object.entries(o).filter(([, v]) => hasAny(v))) : {});

/** The whole file. */
export function emit(m) {
  const form = m.form ?? "setup";
  const setupObj = clean(m.setup);
  const config = ts(m.config);
  let body;
  switch (form) {
    case "setup":
      body = `setup(${ts(setupObj)}).createMachine(${config})`;
      break;
    case "setup-provide":
      body = `setup(${ts(setupObj)})\n  .createMachine(${ts(m.config, "  ")})\n  .provide(${ts(clean(m.impl), "  ")})`;
      break;
    case "create":
      body = `createMachine(${config})`;
      break;
    case "create-impl":
      body = `createMachine(\n  ${ts(m.config, "  ")},\n  ${ts(clean(m.impl), "  ")},\n)`;
      break;
    case "create-provide":
      body = `createMachine(${config}).provide(${ts(clean(m.impl))})`;
      break;
    default:
      throw new Error(`${m.name}: unknown form ${form}`);
  }
  const text = `${m.prelude ? `${m.prelude.trim()}\n\n` : ""}export const machine = ${body};\n`;
  const used = XSTATE_NAMES.filter((n) => new RegExp(`(?<![.\\w])${n}\\(`).test(text));
  const about = m.about
    .trim()
    .split("\n")
    .map((l) => `// ${l}`.trimEnd())
    .join("\n");
  return `${about}\nimport { ${used.join(", ")} } from "xstate";\n\n${text}`;
}
