//! The framing of what the editor sends, read before tower-lsp-server sees it.
//!
//! tower-lsp-server's own reader ends the session at the first message it cannot decode (its
//! codec's error ends the stream, and the server exits with status 0). So the server reads
//! stdin here: each message's header block, then its body, bounded ([`MAX_MESSAGE`],
//! [`MAX_HEADER`]); a well-formed JSON-RPC message goes on to tower-lsp-server, written again
//! from what was parsed (so its codec meets only what it decodes); a malformed one is answered
//! here with the error JSON-RPC gives it (`-32700` Parse error: no message could be read;
//! `-32600` Invalid Request: JSON, but no request, notification or response), and the next
//! message is read. Where the header block cannot say where the body ends (no `Content-Length`,
//! a negative, unreadable or too large one), the reader skips to the next `Content-Length`
//! header. Headers may end their lines with LF alone.
//!
//! What is answered never repeats the input: the error messages name the fault only.

use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt};
use tower_lsp_server::jsonrpc::{Request, Response};

/// The largest message body read: a larger one is answered with an error and skipped, never
/// held (64 MiB: a document the editor sends whole is far smaller).
pub(crate) const MAX_MESSAGE: usize = 64 << 20;

/// The largest header block: its lines, up to the blank line that ends it.
pub(crate) const MAX_HEADER: usize = 8 << 10;

/// How much is asked of the input at a time.
const CHUNK: usize = 64 << 10;

/// JSON-RPC's Parse error: no JSON text (or no message) could be read.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's Invalid Request: JSON, but not a request, notification or response.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// The header name the reader skips to when a header block cannot be used.
const CONTENT_LENGTH: &[u8] = b"content-length";

/// What the input gives next.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// A well-formed message, framed for tower-lsp-server; `method` is a request's or a
    /// notification's method (`None`: a response to a request of the server's).
    Message { frame: Vec<u8>, method: Option<String> },
    /// A malformed message: the error response to send back, framed.
    Malformed { frame: Vec<u8>, why: String },
}

/// Reads messages off an input stream, bounded.
pub struct Reader<R> {
    input: R,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts.
    at: usize,
    eof: bool,
    /// The last header block could not be used: skip to the next `Content-Length` header first.
    resync: bool,
}

/// A header block's fault.
struct BadHeader(String);

impl<R: AsyncRead + Unpin> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader { input, buf: Vec::new(), at: 0, eof: false, resync: false }
    }

    /// The next message, or `None` at the end of the input (or on a read error).
    pub async fn next(&mut self) -> Option<Incoming> {
        if self.resync && !self.skip_to_header().await {
            return None;
        }
        self.resync = false;
        // Blank lines between messages are no fault.
        loop {
            while self.at < self.buf.len() && matches!(self.buf[self.at], b'\r' | b'\n') {
                self.at += 1;
            }
            if self.at < self.buf.len() {
                break;
            }
            if !self.fill().await {
                return None;
            }
        }
        let header = match self.header_block().await? {
            Ok((lines, block)) => content_length(&self.buf[self.at..self.at + lines]).map(|n| (n, block)),
            Err(bad) => Err(bad),
        };
        let (length, block) = match header {
            Ok(found) => found,
            Err(BadHeader(why)) => {
                // Where this body ends is unknown: skip past this block's first byte, to the
                // next `Content-Length`.
                self.at += 1;
                self.resync = true;
                return Some(malformed(PARSE_ERROR, Value::Null, why));
            }
        };
        self.at += block;
        if !self.fill_to(length).await {
            return None;
        }
        let incoming = classify(&self.buf[self.at..self.at + length]);
        self.at += length;
        self.compact();
        Some(incoming)
    }

    /// Reads more of the input; `false` at its end.
    async fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        self.compact();
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        let read = loop {
            match self.input.read(&mut self.buf[len..]).await {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        match read {
            Ok(n) if n > 0 => {
                self.buf.truncate(len + n);
                true
            }
            _ => {
                self.buf.truncate(len);
                self.eof = true;
                false
            }
        }
    }

    /// Until `n` unread bytes are held (read as they come: a length the input never sends
    /// makes nothing that large); `false` when the input ends first.
    async fn fill_to(&mut self, n: usize) -> bool {
        while self.buf.len() - self.at < n {
            if !self.fill().await {
                return false;
            }
        }
        true
    }

    /// Drops what was read.
    fn compact(&mut self) {
        if self.at > 0 {
            self.buf.drain(..self.at);
            self.at = 0;
        }
    }

    /// The header block at `at`: (the length of its lines, with the blank line), once the blank
    /// line came; an error past [`MAX_HEADER`] bytes; `None` when the input ends first.
    async fn header_block(&mut self) -> Option<Result<(usize, usize), BadHeader>> {
        let mut searched: usize = 0;
        loop {
            let unread = &self.buf[self.at..];
            if let Some(found) = blank_line(unread, searched.saturating_sub(3)) {
                if found.0 > MAX_HEADER {
                    break;
                }
                return Some(Ok(found));
            }
            searched = unread.len();
            if searched > MAX_HEADER {
                break;
            }
            if !self.fill().await {
                return None;
            }
        }
        Some(Err(BadHeader(format!("a header block longer than {MAX_HEADER} bytes"))))
    }

    /// Skips to the next `Content-Length` header (any case), holding no more than its name's
    /// length of what it skips; `false` when the input ends first.
    async fn skip_to_header(&mut self) -> bool {
        loop {
            let unread = &self.buf[self.at..];
            if let Some(i) = find_ignore_case(unread, CONTENT_LENGTH) {
                self.at += i;
                return true;
            }
            // Keep what could be the start of the name, split across two reads.
            self.at += unread.len().saturating_sub(CONTENT_LENGTH.len() - 1);
            if !self.fill().await {
                return false;
            }
        }
    }
}

/// Where a header block ends in `text` (searching from `from`): (the length of its lines, the
/// length with the blank line). Lines end with CRLF or LF.
fn blank_line(text: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut i = from;
    while i < text.len() {
        if text[i] == b'\n' {
            if text.get(i + 1) == Some(&b'\n') {
                return Some((i, i + 2));
            }
            if text.get(i + 1) == Some(&b'\r') && text.get(i + 2) == Some(&b'\n') {
                return Some((i, i + 3));
            }
        }
        i += 1;
    }
    None
}

fn find_ignore_case(text: &[u8], needle: &[u8]) -> Option<usize> {
    text.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// The `Content-Length` of a header block (its lines, without the blank line).
fn content_length(block: &[u8]) -> Result<usize, BadHeader> {
    let Ok(text) = std::str::from_utf8(block) else {
        return Err(BadHeader("a header that is not UTF-8 text".into()));
    };
    let mut length: Option<usize> = None;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let Some((name, value)) = line.split_once(':') else {
            return Err(BadHeader("a header line with no `:`".into()));
        };
        let is_token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(is_token) {
            return Err(BadHeader("a header line whose name is no header name".into()));
        }
        if !name.eq_ignore_ascii_case("content-length") {
            continue;
        }
        let value = value.trim_matches([' ', '\t']);
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadHeader("a Content-Length that is not a number of bytes".into()));
        }
        // A run of digits that does not fit is too large as well.
        let n = value.parse::<usize>().unwrap_or(usize::MAX);
        if n > MAX_MESSAGE {
            return Err(BadHeader(format!("a message larger than {MAX_MESSAGE} bytes (64 MiB)")));
        }
        if length.is_some_and(|l| l != n) {
            return Err(BadHeader("two different Content-Length headers".into()));
        }
        length = Some(n);
    }
    length.ok_or_else(|| BadHeader("a header block with no Content-Length".into()))
}

/// What a body is: a message to pass on, written again, or a malformed one's answer.
pub(crate) fn classify(body: &[u8]) -> Incoming {
    // The common case first: a request or notification, parsed once.
    if let Ok(request) = serde_json::from_slice::<Request>(body) {
        if !request.method().is_empty() {
            let method = Some(request.method().to_string());
            if let Ok(text) = serde_json::to_vec(&request) {
                return Incoming::Message { frame: frame(&text), method };
            }
        }
    }
    if let Ok(response) = serde_json::from_slice::<Response>(body) {
        if let Ok(text) = serde_json::to_vec(&response) {
            return Incoming::Message { frame: frame(&text), method: None };
        }
    }
    let value = match std::str::from_utf8(body) {
        Err(_) => return malformed(PARSE_ERROR, Value::Null, "a message that is not UTF-8 text".into()),
        Ok(text) => match serde_json::from_str::<Value>(text) {
            Ok(v) => v,
            Err(e) => {
                // Where, not what: the answer repeats nothing of the input.
                let at = format!("line {}, column {}", e.line(), e.column());
                return malformed(PARSE_ERROR, Value::Null, format!("a message that is not JSON (at {at})"));
            }
        },
    };
    let (id, why) = match &value {
        Value::Array(items) if items.is_empty() => (Value::Null, "an empty batch".to_string()),
        Value::Array(_) => (Value::Null, "a batch (the Language Server Protocol has none)".to_string()),
        Value::Object(o) => {
            // The id is sent back where it is one JSON-RPC allows.
            let id = match o.get("id") {
                Some(Value::String(s)) => Value::String(s.clone()),
                Some(Value::Number(n)) if n.is_i64() => Value::Number(n.clone()),
                _ => Value::Null,
            };
            let why = if o.get("jsonrpc") != Some(&json!("2.0")) {
                "a message whose `jsonrpc` is not \"2.0\"".to_string()
            } else if let Some(m) = o.get("method") {
                if m.as_str().is_some_and(|m| !m.is_empty()) {
                    "a request whose `id` or `params` JSON-RPC does not allow".to_string()
                } else {
                    "a request whose `method` is not a name".to_string()
                }
            } else {
                "an object that is no request, notification or response".to_string()
            };
            (id, why)
        }
        other => (Value::Null, format!("a message that is {}, not an object", kind(other))),
    };
    malformed(INVALID_REQUEST, id, why)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The error response to a malformed message, framed.
fn malformed(code: i64, id: Value, why: String) -> Incoming {
    let message = if code == PARSE_ERROR { "Parse error" } else { "Invalid Request" };
    let answer = json!({
        "jsonrpc": "2.0",
        "error": { "code": code, "message": format!("{message}: jr2 lsp read {why}") },
        "id": id,
    });
    Incoming::Malformed { frame: frame(answer.to_string().as_bytes()), why }
}

/// A message body with its header.
pub(crate) fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Vec<Incoming> {
        let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        rt.block_on(async {
            let mut r = Reader::new(input);
            let mut out = Vec::new();
            while let Some(m) = r.next().await {
                out.push(m);
            }
            out
        })
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;

    /// Each malformed message, then a good one: one error, then the good one, passed on.
    fn then_ping(input: &str) -> Vec<String> {
        let found = read_all(format!("{input}{}", framed(PING)).as_bytes());
        found
            .iter()
            .map(|m| match m {
                Incoming::Message { method, .. } => format!("message {}", method.as_deref().unwrap_or("-")),
                Incoming::Malformed { frame, .. } => {
                    let text = String::from_utf8_lossy(frame);
                    let body: Value = serde_json::from_str(&text[text.find('{').expect("a body")..]).expect("JSON");
                    format!("error {} id {}", body["error"]["code"], body["id"])
                }
            })
            .collect()
    }

    #[test]
    fn each_malformed_message_is_answered_and_the_next_one_read() {
        let cases: Vec<(String, &str)> = vec![
            (framed("{not json"), "error -32700 id null"),
            (framed("[]"), "error -32600 id null"),
            (framed("null"), "error -32600 id null"),
            (framed("5"), "error -32600 id null"),
            (framed(r#"[{"jsonrpc":"2.0","id":1,"method":"a"}]"#), "error -32600 id null"),
            (framed(r#"{"jsonrpc":"1.0","id":3,"method":"a"}"#), "error -32600 id 3"),
            (framed(r#"{"id":"x","method":"a"}"#), "error -32600 id \"x\""),
            (framed(r#"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#), "error -32600 id null"),
            (framed(r#"{"jsonrpc":"2.0","id":1,"method":7}"#), "error -32600 id 1"),
            (framed(r#"{"jsonrpc":"2.0","id":1}"#), "error -32600 id 1"),
            (format!("Content-Length: {}\r\n\r\n\u{0}\u{1}", 2), "error -32700 id null"),
            ("Content-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\"}".into(), "error -32700 id null"),
            ("Content-Length: -5\r\n\r\n{}".into(), "error -32700 id null"),
            ("Content-Length: 99999999999999999999999\r\n\r\n{}".into(), "error -32700 id null"),
            (format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1), "error -32700 id null"),
            ("Content-Length: twelve\r\n\r\n".into(), "error -32700 id null"),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".into(), "error -32700 id null"),
            ("garbage\r\n\r\n".into(), "error -32700 id null"),
        ];
        for (input, answer) in cases {
            assert_eq!(then_ping(&input), [answer, "message ping"], "{input:?}");
        }
    }

    #[test]
    fn lf_only_headers_and_blank_lines_between_messages_are_read() {
        let lf = format!("Content-Length: {}\n\n{PING}", PING.len());
        assert_eq!(then_ping(&lf), ["message ping", "message ping"]);
        let typed = format!(
            "content-length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{PING}\r\n",
            PING.len()
        );
        assert_eq!(then_ping(&typed), ["message ping", "message ping"]);
    }

    #[test]
    fn a_response_passes_on() {
        assert_eq!(then_ping(&framed(r#"{"jsonrpc":"2.0","id":1,"result":null}"#)), ["message -", "message ping"]);
    }

    #[test]
    fn a_header_block_without_end_is_bounded() {
        let long = "X-Pad: ".to_string() + &"a".repeat(MAX_HEADER * 2);
        assert_eq!(then_ping(&long), ["error -32700 id null", "message ping"]);
    }

    #[test]
    fn a_message_cut_short_by_the_end_is_no_message() {
        assert!(read_all(b"Content-Length: 100\r\n\r\n{\"a\"").is_empty());
        assert!(read_all(b"Content-Len").is_empty());
    }

    #[test]
    fn the_answer_repeats_nothing_of_the_input() {
        let secret = "SECRET_TOKEN_123";
        for input in [framed(&format!("{{\"{secret}\"")), framed(&format!("{{\"jsonrpc\":\"{secret}\"}}"))] {
            for m in read_all(input.as_bytes()) {
                let Incoming::Malformed { frame, .. } = m else { panic!("{m:?}") };
                assert!(!String::from_utf8_lossy(&frame).contains(secret));
            }
        }
    }
}
