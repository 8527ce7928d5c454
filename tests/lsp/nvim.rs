//! Neovim (headless, Debian's package) attaches to `jr2 lsp` on the fixture Instance, opens each
//! of its files, and writes the diagnostics its LSP client received; they must be what
//! `jr2 check --format json` reports for the same files.

use super::client::{cli_check, copy_fixture, workflow_files};
use std::process::Command;
use std::time::Duration;

const SCRIPT: &str = r#"
local out = os.getenv("JR2_NVIM_OUT")
local root = os.getenv("JR2_NVIM_ROOT")
local files = vim.split(os.getenv("JR2_NVIM_FILES"), "\n", { trimempty = true })
local got = {}
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  got[result.uri] = result.diagnostics
  return default(err, result, ctx, config)
end
local id = vim.lsp.start_client({
  name = "jr2",
  cmd = { os.getenv("JR2_BIN"), "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "fixture" } },
})
local uris = {}
for _, f in ipairs(files) do
  vim.cmd("edit " .. vim.fn.fnameescape(f))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, id)
  table.insert(uris, vim.uri_from_bufnr(buf))
end
local ok = vim.wait(60000, function()
  for _, u in ipairs(uris) do
    if got[u] == nil then return false end
  end
  return true
end, 50)
local rows = {}
for _, u in ipairs(uris) do
  local buf = vim.uri_to_bufnr(u)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
    table.insert(rows, table.concat({ vim.uri_to_fname(u), code, d.lnum, d.col }, "\t"))
  end
end
local f = io.open(out, "w")
f:write(ok and "complete\n" or "timeout\n")
for _, r in ipairs(rows) do f:write(r .. "\n") end
f:close()
vim.lsp.stop_client(id)
vim.cmd("qa!")
"#;

#[test]
fn neovim_sees_what_the_cli_reports() {
    let has_nvim = Command::new("nvim").arg("--version").output().is_ok_and(|o| o.status.success());
    if !has_nvim {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must have Neovim (.ci/run installs it)");
        eprintln!("note: nvim is not installed; skipping the Neovim test (apt-get install -y neovim)");
        return;
    }
    let root = copy_fixture("nvim");
    let files = workflow_files(&root);
    let dir = std::env::temp_dir().join(format!("jr2-nvim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let script = dir.join("attach.lua");
    std::fs::write(&script, SCRIPT).expect("script");
    let out = dir.join("out.tsv");
    let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("JR2_NVIM_OUT", &out)
        .env("JR2_NVIM_ROOT", &root)
        .env("JR2_NVIM_FILES", list.join("\n"))
        .env("JR2_BIN", env!("CARGO_BIN_EXE_jr2"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("nvim starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let written = std::fs::read_to_string(&out).expect("nvim wrote its diagnostics");
    let mut lines = written.lines();
    assert_eq!(lines.next(), Some("complete"), "nvim got diagnostics for every file:\n{written}");
    let mut seen: Vec<(String, String, u64, u64)> = lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let file = cols[0];
            let rel = file.find("workflows/").map_or(file, |i| &file[i..]).to_string();
            (rel, cols[1].to_string(), cols[2].parse().unwrap_or(0), cols[3].parse().unwrap_or(0))
        })
        .collect();
    seen.sort();
    let expected = cli_check(&root);
    assert!(expected.len() >= 3, "{expected:?}");
    assert_eq!(seen, expected);
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&dir);
}
