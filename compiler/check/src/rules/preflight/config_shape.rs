use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `jr2.config.ts` whose default export is not of the config's shape.
    ///
    /// ## Why
    /// `jr2 up` reads the config statically, as data (`docs/reference/config.md`): a default
    /// export `defineConfig({ git, mcp, secrets, sandbox })`, where `git.credentials` is a list of
    /// `{ url | host, secret, username? }`, `mcp` maps a server's name to `{ url, secret?, timeout? }`,
    /// `secrets` is a list of names, and `sandbox` is `{ resources?: { cpu?, memory? }, image? }`.
    /// A value of another shape would leave a block unknown: this rule says where, and the
    /// rules that need the block stay silent rather than refuse every name. A key the config does
    /// not know (often a typo, `secret` for `secrets`) is not read: `config-unread` warns of it.
    ///
    /// ## Example
    /// ```ts
    /// export default defineConfig({
    ///   git: { credentials: [{ url: "https://github.com/you/" }] },
    ///   secrets: "github",
    /// });
    /// ```
    /// is refused twice:
    /// ```text
    /// `git.credentials[0]` in jr2.config.ts names no `secret`: the credential is a Held secret of `secrets`
    /// `secrets` in jr2.config.ts is the string "github", not a list of names
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default defineConfig({
    ///   git: { credentials: [{ url: "https://github.com/you/", secret: "github" }] },
    ///   secrets: ["github"],
    /// });
    /// ```
    pub static CONFIG_SHAPE = { code: "config-shape", rule: None, severity: Error };
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures() {
        super::super::testing::config_fixtures("config-shape");
    }
}
