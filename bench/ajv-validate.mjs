// Validates every Chart of a folder against grammar/chart.schema.json with ajv (Draft 2020-12),
// in one process: read, JSON.parse, validate. Prints a JSON line with the timing.
// usage: node ajv-validate.mjs SCHEMA DIR
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, dir] = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => join(dir, f));
const t0 = process.hrtime.bigint();
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
const t1 = process.hrtime.bigint();
let invalid = 0;
for (const f of files) if (!validate(JSON.parse(readFileSync(f, "utf8")))) invalid++;
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({ files: files.length, invalid, compile_ms: Number(t1 - t0) / 1e6, validate_ms: Number(t2 - t1) / 1e6 }));
