use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a value of `jr2.config.ts` that `jr2 up` needs and cannot know without running code: an environment variable, a call of a function, a function.
    ///
    /// ## Why
    /// The config is read as the Workflows are, statically: nothing in it runs
    /// (`ARCHITECTURE.md`, the evaluator). What `jr2 up` must know before it converges (which
    /// servers, which secrets, which credentials) has to be written as literals, or `const`s of
    /// literals, in the file or a file it imports. A secret's value is never in the config, only
    /// its name; so nothing in it needs `process.env`.
    ///
    /// ## Example
    /// ```ts
    /// export default defineConfig({
    ///   mcp: { tickets: { url: process.env.TICKETS_URL } },
    /// });
    /// ```
    /// is refused:
    /// ```text
    /// `mcp.tickets.url` in jr2.config.ts is not static (`process` is not defined in this file), so `jr2 up` cannot read it
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default defineConfig({
    ///   mcp: { tickets: { url: "https://mcp.example.com/tickets", secret: "tickets" } },
    ///   secrets: ["tickets"],
    /// });
    /// ```
    pub static CONFIG_NOT_STATIC = { code: "config-not-static", rule: None, severity: Error };
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures() {
        super::super::testing::config_fixtures("config-not-static");
    }
}
