//! A small HTTP/1.1 server on 127.0.0.1:0 for the `http` Effect's tests: a bare tokio TCP
//! listener, one request per connection, its answers by path, each request counted by path.
//!
//! - `/echo`: 200 JSON `{ method, path, authorization, body }` (what it was sent);
//! - `/text`: 200 `text/plain`; `/notjson`: `application/json` that does not parse;
//! - `/big`: 200 `text/plain`, [`BIG`] bytes of `a`;
//! - `/slow`: answers after 3 s;
//! - `/here`: 302 to `/echo` (same origin); `/away`: 302 to `http://localhost:<port>/echo`
//!   (another origin: `localhost` is not `127.0.0.1`);
//! - `/teapot`: 418 with an empty body.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The size of `/big`'s body.
pub(crate) const BIG: usize = 1024 * 1024;

/// What the server saw: requests by path, and the `Authorization` headers it was sent.
#[derive(Default)]
pub(crate) struct Seen {
    pub(crate) hits: HashMap<String, usize>,
    pub(crate) authorizations: Vec<String>,
}

pub(crate) type Shared = Arc<Mutex<Seen>>;

/// Starts the server on the current tokio runtime: its address and what it sees.
pub(crate) async fn start() -> (SocketAddr, Shared) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let addr = listener.local_addr().unwrap();
    let seen: Shared = Arc::default();
    let s = seen.clone();
    tokio::spawn(async move {
        while let Ok((conn, _)) = listener.accept().await {
            tokio::spawn(serve(conn, addr, s.clone()));
        }
    });
    (addr, seen)
}

/// A port nothing listens on (bound, then let go): a connection to it is refused.
pub(crate) async fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
}

async fn serve(mut conn: TcpStream, addr: SocketAddr, seen: Shared) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let Ok(n) = conn.read(&mut chunk).await else { return };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > 64 * 1024 {
            return;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut length = 0usize;
    let mut authorization = None;
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            match k.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = v.trim().parse().unwrap_or(0),
                "authorization" => authorization = Some(v.trim().to_string()),
                _ => {}
            }
        }
    }
    while buf.len() < head_end + length {
        let Ok(n) = conn.read(&mut chunk).await else { return };
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
    {
        let mut s = seen.lock().unwrap();
        *s.hits.entry(path.clone()).or_default() += 1;
        if let Some(a) = &authorization {
            s.authorizations.push(a.clone());
        }
    }
    let (status, ctype, payload, extra) = match path.as_str() {
        "/echo" => {
            let echo =
                serde_json::json!({ "method": method, "path": path, "authorization": authorization, "body": body });
            ("200 OK", "application/json", echo.to_string(), String::new())
        }
        "/text" => ("200 OK", "text/plain", "plain words".to_string(), String::new()),
        "/notjson" => ("200 OK", "application/json", "{not json".to_string(), String::new()),
        "/big" => ("200 OK", "text/plain", "a".repeat(BIG), String::new()),
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            ("200 OK", "text/plain", "late".to_string(), String::new())
        }
        "/here" => ("302 Found", "text/plain", String::new(), "Location: /echo\r\n".to_string()),
        "/away" => {
            ("302 Found", "text/plain", String::new(), format!("Location: http://localhost:{}/echo\r\n", addr.port()))
        }
        "/teapot" => ("418 I'm a teapot", "text/plain", String::new(), String::new()),
        _ => ("404 Not Found", "text/plain", "no such path".to_string(), String::new()),
    };
    let answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{payload}",
        payload.len()
    );
    let _ = conn.write_all(answer.as_bytes()).await;
    let _ = conn.shutdown().await;
}
