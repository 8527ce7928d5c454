-- The durable host's rows (store's lib.rs names them). STRICT tables: a column holds its type or
-- the write fails, so a row read back is one this schema wrote. Payloads are JSON text as the host
-- wrote it, never parsed here. Times are ms since the Unix epoch, the host's clock.

-- The IR of each identity, stored once: a run keeps the IR it started with.
CREATE TABLE irs (
    identity TEXT PRIMARY KEY,
    ir TEXT NOT NULL
) STRICT;

CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    workflow TEXT NOT NULL,
    identity TEXT NOT NULL REFERENCES irs (identity),
    status TEXT NOT NULL,
    -- How many times the run was saved: optimistic concurrency compares it.
    step INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    input TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    parent TEXT,
    -- A dispatch's idempotency key, a column of its own and unique (not an index over the
    -- snapshot's JSON, which SQLite's JSON parser refuses past ~1000 levels).
    dispatch_key TEXT UNIQUE
) STRICT;

-- The live runs a host restores, by id.
CREATE INDEX runs_live ON runs (id) WHERE status = 'live';
-- Lists: newest first; by status; by Workflow; by Workflow and status.
CREATE INDEX runs_created ON runs (created_at, id);
CREATE INDEX runs_status ON runs (status, created_at, id);
CREATE INDEX runs_workflow ON runs (workflow, created_at, id);
CREATE INDEX runs_workflow_status ON runs (workflow, status, created_at, id);

-- Effects' ledger rows (ADR-0067). `seq` is the order they were written.
CREATE TABLE intents (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    actor TEXT NOT NULL,
    incarnation INTEGER NOT NULL,
    slot TEXT NOT NULL,
    kind TEXT NOT NULL,
    input TEXT,
    idempotent INTEGER NOT NULL,
    state TEXT NOT NULL,
    -- 'done' or 'error' once settled, with its JSON text.
    outcome_kind TEXT,
    outcome TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    settled_at INTEGER,
    UNIQUE (run, actor, incarnation)
) STRICT;

CREATE INDEX intents_unsettled ON intents (id) WHERE state <> 'settled';

-- Timers. `seq` is the order they were set: timers due at one instant fire in it.
CREATE TABLE timers (
    seq INTEGER PRIMARY KEY,
    run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    incarnation INTEGER NOT NULL,
    due INTEGER NOT NULL,
    event TEXT,
    UNIQUE (run, id, incarnation)
) STRICT;

CREATE INDEX timers_due ON timers (due, seq);

-- Events from outside a run, once per idempotency key; a consumed row stays, so its key still
-- refuses a repeat.
CREATE TABLE inbox (
    seq INTEGER PRIMARY KEY,
    run TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    event TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    consumed INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run, key)
) STRICT;

CREATE INDEX inbox_waiting ON inbox (run, seq) WHERE consumed = 0;
