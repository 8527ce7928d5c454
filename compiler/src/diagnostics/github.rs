//! TODO renderer
pub fn render(_reports: &[super::FileReport]) -> String { String::new() }
