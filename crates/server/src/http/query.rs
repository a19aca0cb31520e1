//! A request query's `name=value` pairs, exactly as `url::form_urlencoded::parse` gives them,
//! borrowed where nothing needs decoding: the hot handlers (the ACH lookup, the fee quotes)
//! read it directly, every other one through `extract::query_pairs`, its owned form.
//!
//! Why not `form_urlencoded::parse` itself: it works on bytes, so every name and value goes
//! through a percent-decoding scan and a UTF-8 validation (`String::from_utf8_lossy`) even when
//! there is nothing to decode. A query is already a `&str` (hyper checked it), so a piece with
//! neither `%` nor `+` is its own decoding, borrowed as it is; the others are decoded by
//! `form_urlencoded` itself. Measured in-process (benches/http_stack.rs `STACK_PROFILE=quote`,
//! `perf record`): the parse, its percent scan and the UTF-8 checks were 5 % of a whole quote.

use std::borrow::Cow;

/// The pairs of `query` (without its `?`), in order: empty pieces skipped, a piece without `=`
/// read as a name with an empty value, `+` as a space, `%XX` decoded, invalid UTF-8 replaced
/// by U+FFFD — as `form_urlencoded::parse` does.
pub fn pairs(query: &str) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    query.split('&').filter(|piece| !piece.is_empty()).map(|piece| {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        (decode(name), decode(value))
    })
}

fn decode(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b == b'%' || b == b'+') {
        return Cow::Borrowed(text);
    }
    // Decoded by the reference itself, as the value of a pair with an empty name (a value may
    // hold `=`: only the first `=` of the piece, put here, splits).
    let piece = format!("={text}");
    match url::form_urlencoded::parse(piece.as_bytes()).next() {
        Some((_, decoded)) => Cow::Owned(decoded.into_owned()),
        None => Cow::Borrowed(""),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_same_pairs_as_form_urlencoded() {
        let queries = [
            "",
            "&",
            "&&a=1&&",
            "routingNumber=011000138",
            "transferType=EFT&amount=5000.00&payeeId=p-1",
            "a=1&a=2&b",
            "a==b&=c&d=",
            "x=%41=b&y+=%3D=+=",
            "memo=hello+world&x=%41%42%2B%20",
            "bad=%ff%fe&half=%4&end=%",
            "name%3Dx=y%26z&plus+name=+",
            "caf%C3%A9=%E2%82%AC&\u{e9}t\u{e9}=\u{20ac}",
        ];
        for q in queries {
            let ours: Vec<(String, String)> = super::pairs(q).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
            let reference: Vec<(String, String)> = url::form_urlencoded::parse(q.as_bytes()).into_owned().collect();
            assert_eq!(ours, reference, "{q:?}");
        }
    }

    #[test]
    fn plain_pieces_are_borrowed() {
        use std::borrow::Cow::Borrowed;
        let q = "transferType=EFT&amount=5000.00";
        assert!(super::pairs(q).all(|pair| matches!(pair, (Borrowed(_), Borrowed(_)))));
    }
}
