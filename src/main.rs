//! The portal's binary (`cargo xtask dist` builds it for release, `trunk serve` for development);
//! all code lives in the library (`src/lib.rs`).

fn main() {
    moneydesk::start();
}
