//! Where things are: the workspace, the release build of the portal, failure artifacts.

use std::path::PathBuf;

/// The checkout whose tests run, read when they run (cargo sets `CARGO_MANIFEST_DIR`): the
/// shared target dir lets a test binary built in another checkout of the same sources be
/// reused, and the path compiled into it would point at that checkout's `dist` and data.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A file of the shared test data (`../shared/data/<relative>` beside the checkout).
pub fn shared_data(relative: &str) -> PathBuf {
    workspace_root().join("../shared/data").join(relative)
}

/// The release build the server serves: `MONEYDESK_DIST`, or `<workspace>/dist`.
pub fn dist_dir() -> PathBuf {
    let dist = std::env::var_os("MONEYDESK_DIST")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("dist"));
    if !dist.join("index.html").is_file() {
        panic!(
            "no release build of the portal in {}: run `cargo xtask dist` (scripts/setup's md_build_portal) at the workspace root \
             (scripts/test does), or point MONEYDESK_DIST at a dist directory",
            dist.display()
        );
    }
    dist.canonicalize().unwrap_or(dist)
}

/// Screenshots and page HTML of failed tests: `MONEYDESK_E2E_ARTIFACTS`, or
/// `<cargo target dir>/e2e-artifacts`.
pub fn artifacts_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("MONEYDESK_E2E_ARTIFACTS").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    // The test binary lives in <target>/<profile>/deps/.
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().nth(3).map(PathBuf::from))
        .unwrap_or_else(|| workspace_root().join("target"));
    target.join("e2e-artifacts")
}

/// The running test's name (libtest names each test's thread after it), file-name safe.
pub fn test_name() -> String {
    let name = std::thread::current().name().unwrap_or("e2e").to_string();
    name.replace("::", "-")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}
