//! TODO renderer
pub fn render(_reports: &[super::FileReport], _color: bool) -> String { String::new() }
