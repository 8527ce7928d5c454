//! What a message lists, capped: every list that goes into a diagnostic's message goes through
//! [`listed`], so no message grows with its input (5 000 Workflows, a door's enum of 6 000
//! values) and a message says how many it leaves out.

use std::fmt::Display;

/// The most items a message lists.
pub const MAX_LISTED: usize = 20;

/// `items` joined with `, `, at most [`MAX_LISTED`] of them, then `and N more`.
pub fn listed<T: Display>(items: impl IntoIterator<Item = T>) -> String {
    listed_at_most(items, MAX_LISTED)
}

/// [`listed`] with `max` items at most.
pub(crate) fn listed_at_most<T: Display>(items: impl IntoIterator<Item = T>, max: usize) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut more = 0usize;
    for (i, item) in items.into_iter().enumerate() {
        if i >= max {
            more += 1;
            continue;
        }
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{item}");
    }
    if more > 0 {
        let _ = write!(out, ", and {more} more");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_says_how_many_it_leaves_out() {
        assert_eq!(listed(["a", "b"]), "a, b");
        assert_eq!(listed(Vec::<String>::new()), "");
        assert_eq!(listed_at_most(1..=5, 3), "1, 2, 3, and 2 more");
        assert_eq!(listed(0..MAX_LISTED), (0..MAX_LISTED).map(|i| i.to_string()).collect::<Vec<_>>().join(", "));
        assert!(listed(0..6_000).len() < 200);
    }
}
