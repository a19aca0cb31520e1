"""Schemathesis hooks for crates/server/tests/schemathesis.rs: rules that span several
parameters, which an OpenAPI document cannot state (each is also in the operation's text)."""

import schemathesis

SIZES = ("size", "per", "limit")
SEARCH_CRITERIA = ("name", "prefix", "state", "city", "zip")


def _aba_checked(digits: str) -> str:
    """The nine digits with their ninth set so the ABA checksum (weights 3, 7, 1) holds."""
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    total = sum(int(d) * w for d, w in zip(digits[:8], weights))
    number = digits[:8] + str((10 - total % 10) % 10)
    return "011000015" if number == "000000000" else number


@schemathesis.hook
def map_query(ctx, query):
    if not query:
        return query
    # Several page sizes must agree (a 400 otherwise): keep the first given.
    given = [k for k in SIZES if k in query]
    for extra in given[1:]:
        query[extra] = query[given[0]]
    # A routing number that is nine digits gets a valid checksum, so a request the
    # document allows is one the server accepts (a failed checksum is a 400).
    number = query.get("routingNumber")
    if isinstance(number, str) and len(number) == 9 and number.isascii() and number.isdigit():
        query["routingNumber"] = _aba_checked(number)
    return query


@schemathesis.hook
def filter_query(ctx, query):
    if ctx.operation is not None and ctx.operation.path.endswith("/routing/search"):
        query = query or {}
        # At least one criterion, and no ZIP code with the wire directory (it has none).
        if not any(str(query.get(k, "")).strip() for k in SEARCH_CRITERIA):
            return False
        if str(query.get("zip", "")).strip() and str(query.get("directory", "")).strip().lower() == "wire":
            return False
    return True
