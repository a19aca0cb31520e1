//! The search panel in English.

use super::Search;

pub const TEXT: Search = Search {
    heading: "Search",
    close: "Close search",
    close_title: "Close (Esc)",
    label: "Search everything",
    placeholder: "Routing number, check number, amount, name, email…",
    results: "Results",
    idle: "Type a routing number, check number, amount, id, name, email address or file name.",
    searching: "Searching…",
    nothing: "Nothing found for “{}”.",
    one: "1 result; Enter opens it.",
    many: "{} results; the arrow keys move, Enter opens.",
    more: "{} (more in the list)",
};
