//! Tells the code whether it is built optimized: `cfg(optimized)` is set when the opt-level is above 1.
//! The load test (tests/e2e_load.rs) measures memory and answer times, which mean nothing in an
//! unoptimized build (`cargo test --profile dev`), so it is skipped there.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(optimized)");
    println!("cargo:rerun-if-changed=build.rs");
    let level = std::env::var("OPT_LEVEL").unwrap_or_default();
    if matches!(level.as_str(), "2" | "3" | "s" | "z") {
        println!("cargo:rustc-cfg=optimized");
    }
}
