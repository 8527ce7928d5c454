//! The command-line grammar (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(name = "jr2", version = env!("JR2_VERSION"), about = "Checks jr2 Workflows (Machines and Charts), and prints, draws and simulates them", propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Checks Charts (`.json`) and Machines (`.ts`) under the paths; with --fix, applies the
    /// rules' mechanical fixes first, with --diff prints them.
    Check(CheckArgs),
    /// Checks one Chart against one Open body (the Chart door).
    Chart {
        #[command(subcommand)]
        command: ChartCommand,
    },
    /// The Chart grammar as JSON Schema, and its briefing.
    Schema {
        #[command(subcommand)]
        command: SchemaCommand,
    },
    /// Prints the compiled IR of a Chart (`.json`), a Machine (`.ts`) or an SCXML document
    /// (`.scxml`) as JSON.
    Ir(IrArgs),
    /// Prints what a Machine carries (agents, effects and their placement, failing states, open
    /// bodies, models, MCP agents, workspace pods), or with --lends the lend manifest of one of its
    /// Open body slots.
    ///
    /// An Effect's `timeoutMs` is the author's timeout in milliseconds, as the kit's parts carry
    /// it: 0 when the author set none, and the runtime's default (an MCP server's `timeout`)
    /// then applies.
    Parts(PartsArgs),
    /// Draws a Machine (`.ts`) or a Chart (`.json`) from its IR: its states, transitions and what
    /// each state invokes, as Mermaid, Graphviz DOT or SVG (laid out by Graphviz's `dot`).
    Graph(GraphArgs),
    /// Runs a Machine (`.ts`), a Chart (`.json`) or an SCXML document (`.scxml`) in memory on a
    /// simulated clock, with scripted events and actor outcomes, and prints each macrostep: what
    /// the Workflow would do.
    Sim(SimArgs),
    /// Prints the documentation of a diagnostic code.
    Explain(ExplainArgs),
    /// Lists every rule: its code, severity and summary (`--format json`: the registry as JSON).
    Rules(RulesArgs),
    /// The Instance's deploy: the pre-flight (the Instance check, the Instance config against what
    /// the Workflows name, and what each Workflow would run), then the Workflows published to the
    /// Instance's running `jr2 serve` (started in the background where none runs). With --check,
    /// the pre-flight alone.
    Up(UpArgs),
    /// Serves the Instance's Workflows over HTTP on loopback: runs kept in INSTANCE/.jr2/jr2.db,
    /// every live run restored at start; stops cleanly on SIGTERM or SIGINT.
    Serve(ServeArgs),
    /// Runs the Language Server on stdin and stdout (for editors): diagnostics as you type,
    /// hover and quick fixes.
    Lsp,
    // The clients of `jr2 serve`'s HTTP API (src/cli/client.rs, docs/reference/cli.md).
    /// Starts a run of a Workflow on the Instance's server and follows it to its end: exits 0
    /// only for `done`, 1 for any other end (named on stderr), 2 for a usage error.
    Run(RunArgs),
    /// Lists the server's runs, newest first.
    Runs(RunsArgs),
    /// Prints one run: its status, configuration, the Gates waiting and the events each may
    /// send, and its output or error once it ended.
    Status(StatusArgs),
    /// Cancels a live run.
    Cancel(CancelArgs),
    /// Answers a Gate that waits: sends EVENT to the run as that Gate.
    Answer(AnswerArgs),
}

#[derive(Debug, Subcommand)]
pub(crate) enum ChartCommand {
    /// Admits or refuses one Chart (as a planner writes it) against one Open body's lend manifest.
    Check(ChartCheckArgs),
}

#[derive(Debug, Subcommand)]
pub(crate) enum SchemaCommand {
    /// Prints the Chart grammar (JSON Schema, Draft 2020-12), narrowed to one Open body with --lends.
    Chart(LendsArg),
    /// Prints the Chart briefing text.
    Briefing(LendsArg),
    /// Checks a dispatch slot's input schema against a callee's door: whether every value the slot
    /// may send is one the door takes.
    Compat(CompatArgs),
}

/// Output options shared by the checking commands.
#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub(crate) format: FormatArg,
    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// When to colour human output (NO_COLOR is honoured with `auto`).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Instance folders, `.json` Chart files or `.ts` Machine files.
    #[arg(default_value = ".")]
    pub(crate) paths: Vec<PathBuf>,
    /// The lend manifest of the Open body the Charts are checked against.
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: Option<PathBuf>,
    /// Read no foreign dispatch target's door (`GET <url>/workflows/<name>`).
    #[arg(long)]
    pub(crate) offline: bool,
    /// Apply the rules' mechanical fixes to the files (edits and renames), then report what
    /// remains. A fix is kept only where checking again finds its diagnostic gone and no new
    /// error (docs/reference/fixes.md).
    #[arg(long)]
    pub(crate) fix: bool,
    /// Print the fixes that --fix would apply, as a unified diff (a rename as git's `rename from`
    /// and `rename to`), and write nothing; exit 1 when there is one.
    #[arg(long)]
    pub(crate) diff: bool,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ChartCheckArgs {
    /// The Chart file; `-` reads it from stdin.
    #[arg(value_name = "CHART.json")]
    pub(crate) chart: PathBuf,
    /// The lend manifest of the Open body.
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: PathBuf,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CompatArgs {
    /// The dispatch slot's `input` JSON Schema: what is sent.
    #[arg(long, value_name = "SLOT.json")]
    pub(crate) slot: PathBuf,
    /// The callee's door, its input JSON Schema: what it takes.
    #[arg(long, value_name = "DOOR.json")]
    pub(crate) door: PathBuf,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

#[derive(Debug, Args)]
pub(crate) struct LendsArg {
    /// The lend manifest of one Open body.
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct IrArgs {
    /// The Chart (`.json`; `-` reads it from stdin) or the Machine (`.ts`).
    #[arg(value_name = "FILE")]
    pub(crate) chart: PathBuf,
    /// The lend manifest of the Open body.
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: Option<PathBuf>,
    /// When to colour the diagnostics of a refused Chart.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
}

#[derive(Debug, Args)]
pub(crate) struct GraphArgs {
    /// The Chart (`.json`; `-` reads it from stdin) or the Machine (`.ts`).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// The picture's format: Mermaid (`stateDiagram-v2`) and DOT are text; SVG needs Graphviz's
    /// `dot` on the PATH.
    #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
    pub(crate) format: GraphFormat,
    /// Draw only the subtree at this state: its dotted key path (`triaging.ready`), or `#id`.
    #[arg(long, value_name = "PATH")]
    pub(crate) state: Option<String>,
    /// The lend manifest of the Open body, for a Chart outside an Instance (a named Chart of an
    /// Instance is admitted against its wrapper's Open body).
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: Option<PathBuf>,
    /// When to colour the diagnostics.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
}

#[derive(Debug, Args)]
pub(crate) struct SimArgs {
    /// The Chart (`.json`; `-` reads it from stdin) or the Machine (`.ts`).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// The script, one JSON value a line: an event (`{"type": "done", ...}`), `{"after": MS}` (the
    /// clock goes on; due timers fire), or `{"outcome": {"actor": ID, "output": ...}}` (or
    /// `"error"`), an invoked actor settling.
    #[arg(long, value_name = "EVENTS.jsonl")]
    pub(crate) events: Option<PathBuf>,
    /// The run's input (JSON).
    #[arg(long, value_name = "JSON")]
    pub(crate) input: Option<String>,
    /// Print only the last macrostep.
    #[arg(long = "final")]
    pub(crate) r#final: bool,
    /// One JSON line per macrostep, or a line for a person.
    #[arg(long, value_enum, default_value_t = SimFormat::Json)]
    pub(crate) format: SimFormat,
    /// How many microsteps one macrostep may take before the run ends `error` (a loop).
    #[arg(long, value_name = "N")]
    pub(crate) step_bound: Option<usize>,
    /// The host's answers to the guards the run cannot decide (a Chart's lent guards, whose code
    /// is the Open body's), as a JSON object: `{"approved": true}`.
    #[arg(long, value_name = "JSON")]
    pub(crate) guards: Option<String>,
    /// The lend manifest of the Open body, for a Chart outside an Instance.
    #[arg(long, value_name = "LENDS.json")]
    pub(crate) lends: Option<PathBuf>,
    /// When to colour the diagnostics.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimFormat {
    Json,
    Human,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum GraphFormat {
    Mermaid,
    Dot,
    Svg,
}

#[derive(Debug, Args)]
pub(crate) struct PartsArgs {
    /// The Workflow file.
    #[arg(value_name = "WORKFLOW.ts")]
    pub(crate) workflow: PathBuf,
    /// The Open body slot whose lend manifest to print.
    #[arg(long, value_name = "SLOT")]
    pub(crate) lends: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The Instance folder (with `workflows/`).
    #[arg(value_name = "INSTANCE", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Where to listen: a loopback address and port (port 0 picks a free one).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7878")]
    pub(crate) listen: String,
    /// The store's SQLite database (default: INSTANCE/.jr2/jr2.db).
    #[arg(long, value_name = "PATH")]
    pub(crate) db: Option<PathBuf>,
    /// A file of Held secrets (`name=value` lines, mode 0600) for the Effects that name them.
    #[arg(long, value_name = "FILE")]
    pub(crate) secrets: Option<PathBuf>,
    /// Read no foreign dispatch target's door (`GET <url>/workflows/<name>`) while checking.
    #[arg(long)]
    pub(crate) offline: bool,
}

#[derive(Debug, Args)]
pub(crate) struct UpArgs {
    /// Run the pre-flight only: check the Instance and list what each Workflow would run,
    /// publishing nothing.
    #[arg(long)]
    pub(crate) check: bool,
    /// Where a `jr2 serve` that `jr2 up` starts listens (where none runs for the Instance).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7878")]
    pub(crate) listen: String,
    /// The Instance folder (with `jr2.config.ts` and `workflows/`).
    #[arg(value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Read no foreign dispatch target's door (`GET <url>/workflows/<name>`).
    #[arg(long)]
    pub(crate) offline: bool,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// Where the clients of `jr2 serve` find it.
#[derive(Debug, Args)]
pub(crate) struct ServerArgs {
    /// The server's url (`http://127.0.0.1:7878`); without it, the `.jr2/server.json` of the
    /// Instance around the current folder. The token is JR2_TOKEN, else that Instance's
    /// `.jr2/token`.
    #[arg(long, value_name = "URL")]
    pub(crate) server: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The Workflow, as the Instance names it: `release-check`, or a named Chart `notes/weekly`.
    #[arg(value_name = "NAME")]
    pub(crate) name: String,
    /// The run's input (its door checks it): a JSON text, or `@FILE` to read it from a file
    /// (`@-`: stdin). Without it, `{}`.
    #[arg(long, value_name = "JSON|@FILE")]
    pub(crate) input: Option<String>,
    /// Print the run's id and exit 0 once it started, without following it.
    #[arg(long)]
    pub(crate) detach: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct RunsArgs {
    /// Only the runs of this Workflow.
    #[arg(long, value_name = "NAME")]
    pub(crate) workflow: Option<String>,
    /// Only the runs of this status: live, done, failed, error, cancelled, lost, drifted.
    #[arg(long, value_name = "STATUS")]
    pub(crate) status: Option<String>,
    /// The most runs listed.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub(crate) limit: usize,
    /// The server's JSON (`{ "runs": [...], "next": ... }`) instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
    /// The run's id.
    #[arg(value_name = "RUN")]
    pub(crate) run: String,
    /// The server's JSON of the run (`GET /runs/<id>`) instead of lines for a person.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CancelArgs {
    /// The run's id.
    #[arg(value_name = "RUN")]
    pub(crate) run: String,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct AnswerArgs {
    /// The run's id.
    #[arg(value_name = "RUN")]
    pub(crate) run: String,
    /// The Gate that waits: its invoke id, as `jr2 status` lists it.
    #[arg(value_name = "GATE")]
    pub(crate) gate: String,
    /// The event the Gate sends: one of those `jr2 status` lists for it.
    #[arg(value_name = "EVENT")]
    pub(crate) event: String,
    /// The event's payload, a JSON object (its `defineEvent` input), or `@FILE`.
    #[arg(long, value_name = "JSON|@FILE")]
    pub(crate) payload: Option<String>,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// A diagnostic code, such as `json-syntax`.
    pub(crate) code: String,
}

#[derive(Debug, Args)]
pub(crate) struct RulesArgs {
    /// A table for a person, or a JSON array of `{code, severity, rule, summary}`.
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub(crate) format: RulesFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum RulesFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    Auto,
    Always,
    Never,
}

impl ColorArg {
    /// Whether to colour a stream: `auto` colours a terminal unless NO_COLOR is set (non-empty).
    pub(crate) fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}
