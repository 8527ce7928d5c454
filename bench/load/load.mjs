// The API's load benchmark (issue 35, "Load"): CLIENTS concurrent clients on loopback start STARTS
// runs (`POST /workflows/<name>/runs`), then read statuses READS times (`GET /runs/<id>`, each a run
// started here, chosen at random), then check that every run started is found. Node's fetch
// (undici) keeps its connections alive, as a load tool does.
// usage: node load.mjs URL TOKEN WORKFLOW INPUT_JSON [STARTS=1000] [READS=10000] [CLIENTS=32]
// Prints one JSON object: starts/s and reads/s (wall), p50/p99 of each in ms, errors, lost.
const [url, token, workflow, inputText, startsArg, readsArg, clientsArg] = process.argv.slice(2);
if (!url || !token || !workflow || !inputText) {
  console.error("usage: node load.mjs URL TOKEN WORKFLOW INPUT_JSON [STARTS] [READS] [CLIENTS]");
  process.exit(2);
}
const starts = Number(startsArg ?? 1000);
const reads = Number(readsArg ?? 10000);
const clients = Number(clientsArg ?? 32);
const input = JSON.parse(inputText);

const errors = [];
const ids = [];

// Runs `n` jobs over `clients` workers; each job's latency in ms.
async function pool(n, job) {
  const latencies = new Array(n);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const t = performance.now();
        try {
          await job(i);
        } catch (e) {
          errors.push(String(e && e.message ? e.message : e));
        }
        latencies[i] = performance.now() - t;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p) => Number(latencies[Math.min(n - 1, Math.floor(p * n))].toFixed(3));
  return { per_second: Number((n / seconds).toFixed(1)), seconds: Number(seconds.toFixed(3)), p50_ms: q(0.5), p99_ms: q(0.99) };
}

const start = await pool(starts, async () => {
  const r = await fetch(`${url}/workflows/${workflow}/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  const body = await r.json();
  if (r.status !== 201 || typeof body.runId !== "string") throw new Error(`start: ${r.status} ${JSON.stringify(body)}`);
  ids.push(body.runId);
});

const read = await pool(reads, async () => {
  const id = ids[Math.floor(Math.random() * ids.length)];
  const r = await fetch(`${url}/runs/${encodeURIComponent(id)}`);
  const body = await r.json();
  if (r.status !== 200 || body.runId !== id) throw new Error(`status: ${r.status} ${JSON.stringify(body)}`);
});

// Every run a start answered is there.
let lost = 0;
await pool(ids.length, async (i) => {
  const r = await fetch(`${url}/runs/${encodeURIComponent(ids[i])}`);
  await r.arrayBuffer();
  if (r.status !== 200) lost++;
});

console.log(JSON.stringify({ clients, starts: { n: starts, ...start }, reads: { n: reads, ...read }, started: ids.length, errors: errors.length, first_errors: errors.slice(0, 3), lost }));
process.exit(errors.length === 0 && lost === 0 && ids.length === starts ? 0 : 1);
