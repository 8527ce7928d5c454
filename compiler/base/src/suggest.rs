//! "Did you mean": the one suggestion helper for every name that can be misspelt (a state, a
//! `src`, a guard, a diagnostic code given to `jr2 explain` or a suppression, a config key).

/// The name closest to `name` by edit distance, if it is close enough to be a typo: at most a
/// third of the longer name's characters differ (at least one), fewer than either name has (no
/// one-letter name is a slip of another), and not `name` itself.
pub fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if name.is_empty() {
        return None;
    }
    candidates
        .iter()
        .map(|c| (distance(name, c), *c))
        .filter(|(d, c)| {
            let (n, m) = (name.chars().count(), c.chars().count());
            *d > 0 && *d <= (n.max(m) / 3).max(1) && *d < n.min(m)
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `; did you mean "x"?` for a message, or nothing.
pub fn did_you_mean(name: &str, candidates: &[&str]) -> String {
    closest(name, candidates).map_or_else(String::new, |c| format!("; did you mean \"{c}\"?"))
}

/// The edit distance over characters, a swap of two neighbours one edit (the optimal string
/// alignment distance: `dnoe` is one slip from `done`).
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows: the one before the previous (for a swap), the previous, the current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 0..a.len() {
        let mut cur = vec![i + 1; b.len() + 1];
        for j in 0..b.len() {
            let mut d = (prev[j] + usize::from(a[i] != b[j])).min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        let codes = ["unknown-target", "unknown-src", "json-syntax"];
        assert_eq!(closest("unknwon-target", &codes), Some("unknown-target"));
        assert_eq!(closest("json-syntx", &codes), Some("json-syntax"));
        assert_eq!(closest("json-syntax", &codes), None, "the name itself is no suggestion");
        assert_eq!(closest("frobnicate", &codes), None);
        assert_eq!(closest("", &codes), None);
        assert_eq!(closest("b", &["a"]), None, "one letter is no slip of another");
        assert_eq!(did_you_mean("unknown-srcs", &codes), "; did you mean \"unknown-src\"?");
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("dnoe", "done"), 1, "a swap is one slip");
        assert_eq!(closest("dnoe", &["coding", "done"]), Some("done"));
    }
}
