//! A request body read bounded and parsed as JSON: its size first (`Content-Length`, then the
//! bytes read), then its nesting (scanned, no recursion), then serde_json.

use crate::error::{ApiError, Line};
use axum::body::Body;
use axum::http::{header, HeaderMap, StatusCode};
use serde_json::Value;

/// The body as JSON (`Value::Null` for an empty body), at most `limit` bytes and `depth` deep.
pub(crate) async fn json(headers: &HeaderMap, body: Body, limit: usize, depth: usize) -> Result<Value, ApiError> {
    let bytes = bytes(headers, body, limit).await?;
    parse(&bytes, depth)
}

/// The body's bytes, at most `limit`: a larger `Content-Length` is refused before any is read.
pub(crate) async fn bytes(headers: &HeaderMap, body: Body, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    let too_large =
        || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is over the limit of {limit} bytes"));
    let declared =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    // The only error of a bounded read that a client can still be told of is its limit.
    axum::body::to_bytes(body, limit).await.map_err(|_| too_large())
}

/// `bytes` as JSON: nested at most `depth` deep, else a 400 naming the bound.
pub(crate) fn parse(bytes: &[u8], depth: usize) -> Result<Value, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    if let Some(at) = too_deep(bytes, depth) {
        return Err(ApiError::bad(format!("the body nests deeper than {depth} arrays and objects"))
            .with(vec![Line::new("", format!("nesting level {} at byte {at}", depth + 1))]));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad("the body is not JSON").with(vec![Line::new("", format!("{e}"))]))
}

/// The offset where `bytes` nests past `depth`, outside strings.
fn too_deep(bytes: &[u8], depth: usize) -> Option<usize> {
    let (mut level, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                level += 1;
                if level > depth {
                    return Some(i);
                }
            }
            b']' | b'}' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings() {
        assert_eq!(too_deep(br#"{"a":[1,{"b":"[[[[["}]}"#, 3), None);
        assert_eq!(too_deep(b"[[[[", 3), Some(3));
        assert_eq!(too_deep(br#"["\"[[[["]"#, 1), None);
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse(deep.as_bytes(), 64).unwrap_err().status, StatusCode::BAD_REQUEST);
        assert_eq!(parse(b"  ", 64).unwrap(), Value::Null);
        assert_eq!(parse(b"{", 64).unwrap_err().message, "the body is not JSON");
    }
}
