use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an Instance with no readable `jr2.config.ts` at its root: `jr2 up` has no git credentials, MCP servers or secrets to place.
    ///
    /// ## Why
    /// `jr2 up` converges an Instance from its config: the `git.credentials` a Repo Slot's url
    /// is cloned and pushed with, the `mcp` servers its Agents and `mcp()` Effects name, the Held
    /// `secrets` it places in pods and Effectors, the Sandbox's default Size
    /// (`docs/reference/config.md`). Without the file none of that exists, so the pre-flight
    /// cannot judge what the Workflows name, and `jr2 up` could not run them. A file that is
    /// there but is not UTF-8 text is refused the same way. The other pre-flight rules stay
    /// silent until the config can be read.
    ///
    /// ## Example
    /// ```text
    /// my-instance/
    ///   workflows/fix-tests.ts
    /// ```
    /// is refused:
    /// ```text
    /// the Instance config jr2.config.ts is missing, so `jr2 up` knows no git credentials, MCP servers or secrets
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // my-instance/jr2.config.ts
    /// import { defineConfig } from "@jr2/orchestrator";
    ///
    /// export default defineConfig({
    ///   git: { credentials: [{ url: "https://github.com/you/", secret: "github" }] },
    ///   secrets: ["github"],
    /// });
    /// ```
    pub static CONFIG_MISSING = { code: "config-missing", rule: None, severity: Error };
}

#[cfg(test)]
mod tests {
    use crate::preflight::config::read_config;

    /// A folder with no config, and a config that is not UTF-8: one diagnostic each, no panic.
    #[test]
    fn a_missing_or_unreadable_config_is_refused() {
        let dir = std::env::temp_dir().join(format!("jr2-config-missing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let read = read_config(&dir);
        assert!(read.config.is_none());
        let codes: Vec<&str> = read.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["config-missing"]);
        assert!(read.diagnostics[0].message.contains("jr2.config.ts is missing"), "{}", read.diagnostics[0].message);

        std::fs::write(dir.join("jr2.config.ts"), [0xff, 0xfe, 0x00]).unwrap();
        let read = read_config(&dir);
        assert!(read.config.is_none());
        assert_eq!(read.diagnostics.len(), 1);
        assert!(read.diagnostics[0].message.contains("UTF-8"), "{}", read.diagnostics[0].message);

        // A folder in the config's place is no file.
        std::fs::remove_file(dir.join("jr2.config.ts")).unwrap();
        std::fs::create_dir(dir.join("jr2.config.ts")).unwrap();
        let read = read_config(&dir);
        assert_eq!(read.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["config-missing"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The admitted case: the bundled example's config is read, with no diagnostic.
    #[test]
    fn the_example_config_is_read() {
        let root = base::workspace::root().join("examples/instance");
        let read = read_config(&root);
        let found: Vec<String> = read.diagnostics.iter().map(|d| format!("{} {}", d.code, d.message)).collect();
        assert!(found.is_empty(), "{found:#?}");
        assert!(read.config.is_some());
    }
}
