//! The portal's binary: trunk builds it; all code lives in the library (`src/lib.rs`).

fn main() {
    moneydesk::start();
}
