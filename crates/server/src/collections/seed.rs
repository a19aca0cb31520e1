//! What the demo set's generators share (`accounts::seed`, `permissions::seed`; seeded by
//! `crate::seed`): a deterministic random source, people's names and the set's sizes. All
//! names, addresses and domains are fictional (`.example` domains); TINs are only ever the
//! masked last four digits.

pub const DEMO_ACCOUNTS: usize = 2_400;
pub const DEMO_USERS_PER_COMPANY: usize = 10;
pub const DEMO_SCOPES_PER_USER: usize = 5;

/// splitmix64: small, fast, and the same on every platform and version.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// `true` with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// An index chosen by weights.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let mut r = self.below(weights.iter().sum());
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }

    pub fn digits(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from(b'0' + self.below(10) as u8)).collect()
    }

    pub fn letters(&mut self, n: usize) -> String {
        const A: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        (0..n).map(|_| char::from(*self.pick(A))).collect()
    }
}

pub const FIRST: &[&str] = &[
    "Alex", "Maria", "James", "Priya", "Chen", "Fatima", "Noah", "Olivia", "Liam", "Sofia", "Mateo", "Aisha", "Ethan",
    "Hannah", "Diego", "Grace", "Kwame", "Yuki", "Lucas", "Amara", "Daniel", "Elena", "Omar", "Chloe", "Ravi",
    "Isabel", "Samuel", "Nadia", "Henry", "Leah", "Tomas", "Zoe", "Malik", "Ingrid", "Victor", "Rosa", "Felix", "Mei",
    "Andre", "Clara",
];
pub const LAST: &[&str] = &[
    "Johnson",
    "Garcia",
    "Nguyen",
    "Patel",
    "Okafor",
    "Kim",
    "Rossi",
    "Schmidt",
    "Haddad",
    "Silva",
    "Kowalski",
    "Murphy",
    "Tanaka",
    "Abernathy",
    "Delgado",
    "Fischer",
    "Mensah",
    "Larsen",
    "Moreau",
    "Brennan",
    "Castillo",
    "Whitfield",
    "Ibrahim",
    "Novak",
    "Lindqvist",
    "O'Connor",
    "Reyes",
    "Sato",
    "Harper",
    "Bianchi",
    "Mwangi",
    "Dubois",
];

/// The letters and digits of `s`, lower-cased (for e-mail addresses and domains).
pub fn slug(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_lowercase()
}
