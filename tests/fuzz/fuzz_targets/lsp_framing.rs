//! The LSP's framing: any byte stream as the editor's side of stdio, read message by message by
//! `jr2_lsp::framing::Reader` to its end. Never a panic or a hang; every malformed message gets
//! an answer that is one JSON-RPC error response, framed, and the reader goes on.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let bytes: Vec<u8> = if mode == 0 {
        rest.to_vec()
    } else {
        let mut out = Vec::new();
        let _ = jr2_fuzz::lsp_stream(&mut arbitrary::Unstructured::new(rest), &mut out);
        jr2_fuzz::show(&out);
        out
    };
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    runtime.block_on(async {
        let mut reader = jr2_lsp::framing::Reader::new(bytes.as_slice());
        // Each message takes at least one byte of the input: the reader ends.
        for _ in 0..=bytes.len() {
            match reader.next().await {
                None => return,
                Some(jr2_lsp::framing::Incoming::Malformed { frame, .. }) => {
                    let text = String::from_utf8(frame).expect("an answer is UTF-8");
                    let (_, body) = text.split_once("\r\n\r\n").expect("an answer is framed");
                    let v: serde_json::Value = serde_json::from_str(body).expect("an answer is JSON");
                    assert_eq!(v["jsonrpc"], "2.0");
                    assert!(v["error"]["code"].is_i64(), "{v}");
                }
                Some(jr2_lsp::framing::Incoming::Message { .. }) => {}
            }
        }
        panic!("the reader gave more messages than the input has bytes");
    });
});
