//! napi-rs's build setup: the link arguments of a Node addon on each platform, and the rebuild
//! that writes the TypeScript declarations when `npm/build.mjs` asks for them.

fn main() {
    napi_build::setup();
}
