use diagnostics::declare_rule;

declare_rule! {
    /// Warns of what `jr2.config.ts` writes and `jr2 up` does not read: a key the config does not know, a Held secret listed twice.
    ///
    /// ## Why
    /// `jr2 up` reads the config's keys by name (`docs/reference/config.md`): a key it does not
    /// know is not read, and is most often a typo (`secret` for `secrets`), so the block it meant
    /// is missing. A Held secret named twice in `secrets` is one secret: the second name adds
    /// nothing. Neither stops `jr2 up`, so each is a warning; `config-shape` refuses a block of
    /// the wrong shape.
    ///
    /// ## Example
    /// ```ts
    /// export default defineConfig({
    ///   secret: ["github"],
    ///   secrets: ["corp", "corp"],
    /// });
    /// ```
    /// warns twice:
    /// ```text
    /// unknown key `secret` in jr2.config.ts: `jr2 up` does not read it
    /// the Held secret "corp" is listed twice in `secrets`
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default defineConfig({
    ///   secrets: ["github", "corp"],
    /// });
    /// ```
    pub static CONFIG_UNREAD = { code: "config-unread", rule: None, severity: Warning };
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures() {
        super::super::testing::config_fixtures("config-unread");
    }
}
