#!/usr/bin/env python3
"""Seeds each fuzz target's corpus (tests/fuzz/corpus/<target>/) from the repository's fixtures.

Every seed starts with a 0 byte, the targets' text mode (src/lib.rs): the rest is the text as it
is. A seed's file name is the SHA-1 of its bytes, as libFuzzer names what it adds, so seeding
again adds nothing twice. Prints how many seeds each target has.
"""
import hashlib
import json
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
skip = {"node_modules", "target", "corpus", "artifacts"}


def files(*globs):
    out = []
    for g in globs:
        for p in sorted(root.glob(g)):
            if p.is_file() and not skip.intersection(p.parts):
                out.append(p)
    return out


def plain(text):
    """A fixture's text without its expectation comments (`// ^ error[...]` lines)."""
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))


def add(target, data):
    d = here / "corpus" / target
    d.mkdir(parents=True, exist_ok=True)
    data = b"\0" + data
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def frame(body):
    b = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


charts = files("compiler/check/tests/fixtures/door/**/*.json", "tests/fixtures/**/*.json", "examples/**/*.json", "bench/**/*.json")
machines = files("compiler/check/tests/fixtures/machine/**/*.ts", "compiler/check/tests/fixtures/walk*/**/*.ts",
                 "compiler/check/tests/fixtures/instance/**/*.ts", "tests/fixtures/**/*.ts", "examples/**/*.ts")
manifests = [p for p in charts if p.name.endswith("lends.json")]
schemas = files("tests/fixtures/compat/*.json")

for p in charts:
    add("door", plain(p.read_text(errors="replace")).encode())
for p in machines:
    add("machine", p.read_bytes())
for p in manifests:
    add("lends", p.read_bytes())
texts = [p.read_bytes() for p in schemas]
for a in texts:
    for b in texts:
        add("compat", a + b"\0" + b)
for s in [b"true", b"false", b"{}"]:
    for t in texts:
        add("compat", s + b"\0" + t)
        add("compat", t + b"\0" + s)
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
for i, p in enumerate(charts[:40] + machines[:40]):
    lang = "json" if p.suffix == ".json" else "typescript"
    open_ = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": f"file:///w/workflows/{p.name}", "languageId": lang, "version": 1, "text": p.read_text(errors="replace")}}}
    add("lsp_framing", frame(init) + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}) + frame(open_)
        + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"}))
for junk in [b"Content-Length: -1\r\n\r\n{}", b"Content-Length: 2\n\n[]", b"\r\n\r\nnull", b"Content-Length: 99999999999\r\n\r\n"]:
    add("lsp_framing", junk + frame(init))

for t in ["door", "machine", "lends", "compat", "lsp_framing"]:
    n = len(list((here / "corpus" / t).iterdir()))
    print(f"{t}: {n} seeds", file=sys.stderr)
