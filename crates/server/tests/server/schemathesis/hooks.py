"""Schemathesis hooks for crates/server/tests/server/schemathesis.rs: rules that span several
parameters, which an OpenAPI document cannot state (each is also in the operation's text)."""

import requests
import schemathesis

SIZES = ("size", "per", "limit")
SEARCH_CRITERIA = ("name", "prefix", "state", "city", "zip")


def _aba_checked(digits: str) -> str:
    """The nine digits with their ninth set so the ABA checksum (weights 3, 7, 1) holds."""
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    total = sum(int(d) * w for d, w in zip(digits[:8], weights))
    number = digits[:8] + str((10 - total % 10) % 10)
    return "011000015" if number == "000000000" else number


def _fix_query(query):
    if not query:
        return query
    # A vault upload whose part has no filename takes its name from here.
    if "path" in query and "name" not in query:
        query["name"] = "upload.bin"
    # Several page sizes must agree (a 400 otherwise): keep the first given.
    given = [k for k in SIZES if k in query]
    for extra in given[1:]:
        query[extra] = query[given[0]]
    # A routing number that is nine digits gets a valid checksum, so a request the
    # document allows is one the server accepts (a failed checksum is a 400).
    # An admin's duplicate override must say why.
    if str(query.get("overrideDuplicate", "")).lower() == "true" and not query.get("overrideReason"):
        query["overrideReason"] = "A second presentment the bank asked for"
    number = query.get("routingNumber")
    if isinstance(number, str) and len(number) == 9 and number.isascii() and number.isdigit():
        query["routingNumber"] = _aba_checked(number)
    # A time window's end must not come before its start (both ISO 8601, comparable as text).
    for a, b in (("createTimeFrom", "createTimeTo"), ("createdFrom", "createdTo"), ("from", "to")):
        start, end = query.get(a), query.get(b)
        if isinstance(start, str) and isinstance(end, str) and end < start:
            query[a], query[b] = end, start
    return query


@schemathesis.hook
def map_query(ctx, query):
    path = ctx.operation.path if ctx.operation is not None else ""
    if path.endswith("/email/inbound/messages") and query:
        # Inbound messages: a domain filter is a domain name; a cursor is one an answer gave
        # (none here); envelope addresses are addresses (the data's rules, not the shapes').
        if isinstance(query.get("domain"), str):
            query["domain"] = f"unrouted-{uuid.uuid4().hex[:8]}.example"
        query.pop("before", None)
        for k in ("from", "to"):
            query.pop(k, None)
    if path.endswith("/email/bounces") and query and isinstance(query.get("domain"), str) and query["domain"].strip():
        # Bounces of one sending domain: a domain name (its rules are the data's).
        query["domain"] = f"unregistered-{uuid.uuid4().hex[:8]}.example"
    if path.endswith("/email/deliverability") and query and isinstance(query.get("from"), str) and "to" not in query:
        # A window's `to` defaults to today, so a `from` after today alone is after it (a 400):
        # the window ends on the day it starts.
        query["to"] = query["from"]
    if path.endswith("/services/events") and query and isinstance(query.get("type"), str):
        # Event types are the server's list (a word outside it is a 400 naming it).
        query["type"] = "deposit.created,deposit.settled"
    return _fix_query(query)


def _vault_path_ok(value, one_name=False):
    """The vault's byte limits (CONTRACT.md point 12), which a pattern cannot state: a name
    at most 255 bytes and a path at most 4096 after NFC. (The rest is in the patterns.)"""
    import unicodedata
    if not isinstance(value, str):
        return True
    nfc = unicodedata.normalize("NFC", value)
    if len(nfc.encode("utf-8", "surrogatepass")) > 4096:
        return False
    if "\\" in nfc or any(unicodedata.category(c) == "Cc" for c in nfc):
        return False
    inner = nfc[1:] if nfc.startswith("/") else nfc
    inner = inner[:-1] if inner.endswith("/") else inner
    names = [nfc] if one_name else (inner.split("/") if inner else [])
    return all(n and len(n.encode("utf-8", "surrogatepass")) <= 255 and n not in (".", "..") for n in names)


@schemathesis.hook
def filter_query(ctx, query):
    if ctx.operation is not None and "/document-vault/" in ctx.operation.path:
        query = query or {}
        paths = query.get("paths", [])
        paths = paths if isinstance(paths, list) else [paths]
        if not all(_vault_path_ok(query.get(k)) for k in ("path", "newPath")) or not all(map(_vault_path_ok, paths)):
            return False
        if ctx.operation.path.endswith("/folder") and not _vault_path_ok(query.get("name"), one_name=True):
            return False
    if ctx.operation is not None and ctx.operation.path.endswith("/routing/search"):
        query = query or {}
        # At least one criterion, and no ZIP code with the wire directory (it has none).
        if not any(str(query.get(k, "")).strip() for k in SEARCH_CRITERIA):
            return False
        if str(query.get("zip", "")).strip() and str(query.get("directory", "")).strip().lower() == "wire":
            return False
    return True


# --- Deposits: what a check deposit's body must hold beyond its fields' own rules ---

import base64
import datetime
import os
import pathlib
import re
import struct
import uuid
import zlib
from zoneinfo import ZoneInfo


def _png(width: int, height: int) -> str:
    """A grey PNG of the given size, base64: a picture the server decodes as a check image."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode()


CHECK_IMAGE = _png(240, 100)
DEFAULT_SCHEDULE = (
    pathlib.Path(__file__).resolve().parents[4] / "model/src/fees/default-schedule.toml"
).read_text()
_versions_sent = 0
# The server's business day (MONEYDESK_BUSINESS_TIME_ZONE's default).
BUSINESS_TIME_ZONE = ZoneInfo("America/New_York")
# Reasons are required for these moves (the operation's text says so).
MOVES_WITH_REASON = ("reject", "return")


def _fix_mailbox(m):
    """A mailbox of the right shape gets an address the server allows and a plain name;
    one of the wrong shape (a negative case) is left as it is."""
    if isinstance(m, dict):
        # An empty address breaks the document's minLength: a negative case, kept.
        if isinstance(m.get("email"), str) and m["email"]:
            m["email"] = f"r-{uuid.uuid4().hex[:12]}@client.example"
        if isinstance(m.get("name"), str):
            m["name"] = "Client"


def _pop_if(d, key, ok):
    if key in d and ok(d[key]):
        del d[key]


def _unix_seconds(v):
    # A time the server judges (within 72 hours): an int64, as documented; a float or a number
    # past int64 is a negative case and stays.
    whole = (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    return v is None or (whole and -2**63 <= v < 2**63)


def _fix_send(body):
    """Rules of the data and across fields (who may send, addresses unique in the request,
    base64 that decodes, a known template, content or a template): fixed where a value has
    its documented type, so a schema-valid body is one the server must accept and a
    schema-violating one stays a negative case."""
    if isinstance(body.get("from"), dict) and isinstance(body["from"].get("email"), str) and body["from"]["email"]:
        body["from"]["email"] = "ops@moneydesk.test"
        body["from"].pop("name", None)
    if isinstance(body.get("reply_to"), dict):
        _fix_mailbox(body["reply_to"])
    for key in ("from", "reply_to"):
        # Unknown keys in a mailbox are ignored; a null name is no name.
        if isinstance(body.get(key), dict) and body[key].get("name") is None:
            body[key].pop("name", None)
    # Optional fields whose data the server judges (a template that exists, a time within 72
    # hours, base64 that decodes) go when they are of their documented type; a value of another
    # type is a negative case and stays. (A template id's shape is the document's pattern.)
    _pop_if(body, "template_id", lambda v: v is None or (isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", v)))
    _pop_if(body, "send_at", _unix_seconds)
    # A batch must have been made (POST …/batches) before a send names it.
    _pop_if(body, "batch_id", lambda v: v is None or isinstance(v, str))
    # Categories are fuzzed as the document states them (count, uniqueness, characters); its
    # maxLength counts characters, the server's limit is 255 bytes of UTF-8, which a schema
    # cannot state: a longer one goes.
    if isinstance(body.get("categories"), list):
        body["categories"] = [c for c in body["categories"] if not isinstance(c, str) or len(c) > 255
                              or len(c.encode("utf-8", "surrogatepass")) <= 255]
    _pop_if(body, "attachments", lambda v: isinstance(v, list) and all(
        isinstance(a, dict) and isinstance(a.get("content"), str) and isinstance(a.get("filename"), str)
        and all(a.get(k) is None or isinstance(a.get(k), str) for k in ("type", "disposition", "content_id"))
        for a in v))
    if body.get("subject") is None or isinstance(body.get("subject"), str):
        body["subject"] = "Fuzzed"
    content = body.get("content")
    if content is None or (isinstance(content, list) and all(isinstance(c, dict) and isinstance(c.get("type"), str) and isinstance(c.get("value"), str) for c in content)):
        body["content"] = [{"type": "text/plain", "value": "x"}]
    ps = body.get("personalizations")
    if isinstance(ps, list):
        # Fewer recipients for the relay, when every item has its documented shape (cutting
        # a list could drop a negative case's wrong item and send a valid request).
        if all(isinstance(p, dict) for p in ps):
            del ps[5:]
        if not ps:
            ps.append({"to": [{"email": "x@client.example"}]})
        for p in ps:
            if not isinstance(p, dict):
                continue
            _pop_if(p, "dynamic_template_data", lambda v: v is None or isinstance(v, dict))
            _pop_if(p, "send_at", _unix_seconds)
            if isinstance(p.get("subject"), str):
                p["subject"] = "Fuzzed"
            for kind in ("to", "cc", "bcc"):
                if isinstance(p.get(kind), list):
                    if all(isinstance(m, dict) and isinstance(m.get("email"), str) and m["email"] for m in p[kind]):
                        del p[kind][3:]
                    for m in p[kind]:
                        _fix_mailbox(m)
            if p.get("to") == [] or "to" not in p:
                p["to"] = [{"email": f"r-{uuid.uuid4().hex[:12]}@client.example"}]


def _fix_body(path, body):
    if path.endswith("/deposits/check") and isinstance(body, dict):
        # An image's content, the routing checksum, the check's date against today and an
        # account of the collection are rules of the data, not of the document's shapes.
        body["checkFrontImage"] = CHECK_IMAGE
        body["checkBackImage"] = CHECK_IMAGE
        # The images are sent, so no scan is named (one or the other; no scan exists anyway).
        body.pop("scanId", None)
        # Without a scan the amount and check number are required (the operation says so in
        # words: the schema cannot say "unless scanId").
        if body.get("amount") is None:
            body["amount"] = "1.00"
        # A number's two decimals (the document states them in words: `multipleOf: 0.01` is
        # not exact in binary floating point); a number rounded to none above zero is a cent.
        for name, least in (("amount", 0.01), ("fee", 0.0)):
            v = body.get(name)
            if isinstance(v, float) and (v != round(v, 2) or v == 0 or repr(v) != repr(round(v, 2))):
                body[name] = max(abs(round(v, 2)), least) + 0.0
        if body.get("checkNumber") is None:
            body["checkNumber"] = "1"
        # The bank must be in the FedACH directory (a 400 naming the field): a demo bank's.
        number = body.get("bankRoutingNumber")
        if isinstance(number, str) and len(number) == 9 and number.isdigit():
            body["bankRoutingNumber"] = "021090028"
        today = datetime.datetime.now(BUSINESS_TIME_ZONE).date().isoformat()
        if body.get("checkDate") is not None:
            body["checkDate"] = today
        if body.get("scheduleDate") is not None:
            body["scheduleDate"] = today
        account = os.environ.get("MONEYDESK_ST_ACCOUNT_ID")
        if account and body.get("payeeAccountId") is not None:
            body["payeeAccountId"] = account
        if account and body.get("payerId") is not None:
            body["payerId"] = account
    if path.endswith("/deposits/cash") and isinstance(body, dict):
        if isinstance(body.get("scheduleDate"), str):
            body["scheduleDate"] = datetime.datetime.now(BUSINESS_TIME_ZONE).date().isoformat()
        account = os.environ.get("MONEYDESK_ST_ACCOUNT_ID")
        if account and body.get("payeeAccountId") is not None:
            body["payeeAccountId"] = account
    if path.endswith("/deposits/electronic") and isinstance(body, dict):
        # The routing checksum, the effective day against today and the sleeve account are
        # rules of the data (a bank the directory lacks is a documented 404).
        number = body.get("bankRoutingNumber")
        if isinstance(number, str) and len(number) == 9 and number.isdigit():
            body["bankRoutingNumber"] = _aba_checked(number)
        if isinstance(body.get("effectiveDate"), str):
            body["effectiveDate"] = datetime.datetime.now(BUSINESS_TIME_ZONE).date().isoformat()
        account = os.environ.get("MONEYDESK_ST_ACCOUNT_ID")
        if account and body.get("payeeAccountId") is not None:
            body["payeeAccountId"] = account
    if path.endswith("/fee-schedules/versions") and isinstance(body, str):
        # The body is a schedule file, whose tiers must cover each amount exactly once and
        # take effect in the future: rules across the file that a generated string never
        # meets. The shipped schedule, made effective at a new future second each time, is
        # one the server must accept. (A body that is not text is a negative case: left as is.)
        global _versions_sent
        _versions_sent += 1
        effective = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30, seconds=_versions_sent))
        stamp = effective.strftime("%Y-%m-%dT%H:%M:%SZ")
        return "\n".join(
            f'effective_from = "{stamp}"' if line.startswith("effective_from") else line
            for line in DEFAULT_SCHEDULE.splitlines()
        )
    if path.endswith("/utility/message/email") and isinstance(body, dict):
        _fix_send(body)
    shaped = isinstance(body, dict) and isinstance(body.get("subject"), str) and (
        isinstance(body.get("name"), str) or not path.endswith("/templates"))
    if "/message/email/templates" in path and shaped and not path.endswith("}/preview"):
        # A part must compile as handlebars (a rule of the text: braces go, the rest is
        # fuzzed), and text or html must be given (across fields); names are unique (data).
        for part in ("subject", "text", "html"):
            if isinstance(body.get(part), str):
                body[part] = body[part].replace("{", "(").replace("}", ")")
        if not any(isinstance(body.get(k), str) and body[k].strip() for k in ("text", "html")):
            if body.get("text") is None or isinstance(body.get("text"), str):
                body["text"] = "Hello"
        if path.endswith("/templates"):
            body["name"] = f"fuzzed-{uuid.uuid4().hex[:12]}"
    if path.endswith("/email/inbound/routes") and isinstance(body, dict) and isinstance(body.get("domain"), str):
        # A route: a fresh domain name each time (one route a domain), an http(s) URL.
        body["domain"] = f"fuzzed-{uuid.uuid4().hex[:12]}.example"
    if "/email/inbound/routes" in path and isinstance(body, dict) and isinstance(body.get("url"), str):
        body["url"] = "https://hooks.example/inbound"
    if "/webhooks/endpoints" in path and isinstance(body, dict) and isinstance(body.get("url"), str):
        # An endpoint's host must resolve and be allowed (the server's allow-list names
        # 127.0.0.1 for this run); its event types must be the server's.
        body["url"] = "http://127.0.0.1:9/moneydesk-hook"
        types = body.get("eventTypes")
        if isinstance(types, list) and all(isinstance(t, str) for t in types):
            body["eventTypes"] = ["*"] if types else []
    if path.endswith("}/preview") and isinstance(body, dict) and isinstance(body.get("version"), float):
        # JSON has one number type; serde's u32 refuses `1.0` (the document's integer).
        if body["version"].is_integer() and body["version"] >= 0:
            body["version"] = int(body["version"])
    if path.endswith("/endpoints/{id}/secret") and isinstance(body, dict):
        # JSON has one number type; serde's u32 refuses `41.0` (the document's integer).
        hours = body.get("overlapHours")
        if isinstance(hours, float) and hours.is_integer():
            body["overlapHours"] = int(hours)
    if path.endswith("/replay") and isinstance(body, dict):
        # A replay names one event, or a time range from and to (a rule across the fields);
        # an event this server never wrote is the documented 404. (A value of another type is
        # a negative case: left as it is.)
        text_or_none = lambda k: body.get(k) is None or isinstance(body.get(k), str)
        if isinstance(body.get("eventId"), str) and text_or_none("from") and text_or_none("to"):
            body.pop("from", None)
            body.pop("to", None)
        elif body.get("eventId") is None and text_or_none("from") and text_or_none("to"):
            body.pop("eventId", None)
            if isinstance(body.get("from"), str) and isinstance(body.get("to"), str):
                body["from"], body["to"] = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
            else:
                body["eventId"] = "evt_000000000000000000000000"
                body.pop("from", None)
                body.pop("to", None)
    if "/email/suppressions/" in path and isinstance(body, dict) and isinstance(body.get("entries"), list):
        # Suppression entries: addresses the server parses, categories without control characters.
        for e in body["entries"]:
            _fix_mailbox(e)
            if isinstance(e, dict) and isinstance(e.get("category"), str):
                e["category"] = "news"
    if path.endswith("/message/email/domains") and isinstance(body, dict) and isinstance(body.get("domain"), str):
        # A domain name's rules (labels, hyphens, IDNA) are the data's, not the document's
        # shapes: a fresh one each time (a domain is registered once).
        body["domain"] = f"fuzzed-{uuid.uuid4().hex[:12]}.example"
    if path.endswith("/actions") and isinstance(body, dict):
        if body.get("action") in MOVES_WITH_REASON and not str(body.get("reason") or "").strip():
            body["reason"] = "Returned by the paying bank"
        # A reason code is a return's, from the X9 or NACHA lists (the lists are the data's).
        # (A code the document refuses is a negative case: left as it is.)
        code = body.get("reasonCode")
        if isinstance(code, str) and re.fullmatch(r"[A-Z1-9]|R[0-9]{2}", code):
            if body.get("action") == "return":
                body["reasonCode"] = "R01"
            else:
                body.pop("reasonCode")
    if path.endswith("/deposits/returns") and isinstance(body, (bytes, bytearray, str, list)):
        # A return file must read as one (X9 or NACHA, with their controls): the file the test
        # wrote, never matched (an entry this server did not send).
        with open(os.environ["MONEYDESK_ST_RETURN_FILE"], "rb") as f:
            return f.read()
    if path.endswith("/deposits/returns/{id}") and isinstance(body, dict):
        # A match names its deposit; a dismissal says why.
        # (Values of the wrong type or shape are negative cases: left as they are.)
        if body.get("action") == "match" and body.get("depositId") is None:
            body["depositId"] = 1
        if body.get("action") == "dismiss":
            if isinstance(body.get("depositId"), int) and not isinstance(body.get("depositId"), bool):
                body.pop("depositId")
            if body.get("note") is None:
                body["note"] = "Not ours"
    if path.endswith("/ledger/adjustments") and isinstance(body, dict):
        # Two different accounts and an amount the books take (over zero, under a billion,
        # cents): rules across the fields and of the amount's digits.
        if isinstance(body.get("debit"), str) and body.get("debit") == body.get("credit") and ":" in body["debit"]:
            body["credit"] = "bank:adjustments" if body["debit"] != "bank:adjustments" else "bank:settlement"
        amount = body.get("amount")
        text = str(amount)
        ok = re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,2})?", text) is not None and float(text) > 0
        if not ok and isinstance(amount, (int, float)) and not isinstance(amount, bool):
            body["amount"] = "1.00"
    return body


def _fix_headers(headers):
    # A key reused with another body is a 422 by design; each generated request is a new one.
    # A key the document allows (1–255 visible ASCII) is made new; one it forbids is a negative
    # case and stays, for the server to refuse.
    # Blanks around a key are the server's to trim but the client's to refuse sending, so they
    # go first (a key left too long or empty is still negative).
    key = headers.get("Idempotency-Key") if headers else None
    if isinstance(key, str):
        key = key.strip(" \t")
        valid = re.fullmatch(r"[!-~]([ -~]*[!-~])?", key) is not None and len(key) <= 255
        headers["Idempotency-Key"] = str(uuid.uuid4()) if valid else key
    return headers


@schemathesis.hook
def map_body(ctx, body):
    return _fix_body(ctx.operation.path if ctx.operation is not None else "", body)


# Every phase's keys are fixed where requests prepares the headers, out of schemathesis' sight:
# the coverage phase builds its cases without the `map_*` hooks (schemathesis 4.32 applies them
# to generated strategies only), and a `before_call` hook that edits a case makes schemathesis
# take it for a positive one (its missing-Authorization cases then keep the header).
_prepare_headers = requests.models.PreparedRequest.prepare_headers


def _prepare_headers_with_fixed_key(self, headers):
    if headers:
        plain = dict(headers.items())
        name = next((n for n in plain if isinstance(n, str) and n.lower() == "idempotency-key"), None)
        if name is not None and name != "Idempotency-Key":
            plain["Idempotency-Key"] = plain.pop(name)
        headers = _fix_headers(plain)
    _prepare_headers(self, headers)


requests.models.PreparedRequest.prepare_headers = _prepare_headers_with_fixed_key


@schemathesis.hook
def map_path_parameters(ctx, path_parameters):
    # A sending domain in the path: a domain name (its rules are the data's); one not
    # registered, so the answer is the documented 404.
    if ctx.operation is not None and ("/message/email/domains/" in ctx.operation.path or "/email/inbound/routes/" in ctx.operation.path or "/email/suppressions/" in ctx.operation.path) and isinstance(path_parameters, dict):
        if isinstance(path_parameters.get("domain"), str):
            path_parameters["domain"] = f"unregistered-{uuid.uuid4().hex[:12]}.example"
    # A token's id: never the run's own admin token (revoking it would refuse every later
    # request); an unknown one, answered with the documented 404.
    if ctx.operation is not None and ctx.operation.path.endswith("/services/tokens/{id}") and isinstance(path_parameters, dict):
        path_parameters["id"] = 10**12 + uuid.uuid4().int % 10**6
    return path_parameters


@schemathesis.serializer("message/rfc822")
def rfc822_serializer(ctx, value):
    """A raw inbound message: a header section (the rules of RFC 5322 are the data's), the
    generated value as its subject, to a domain with no route (the documented 404)."""
    if ctx.case.operation.path.endswith("/email/bounces/reports") and not isinstance(value, (str, bytes)):
        # A report that is not text breaks the schema: sent as no message at all (a 400), not
        # wrapped into a message the server keeps as it keeps every report.
        return b""
    subject = str(value).replace("\r", " ").replace("\n", " ")[:200]
    return (f"From: fuzz@corp.example\r\nTo: ops@unrouted-{uuid.uuid4().hex[:8]}.example\r\n"
            f"Subject: {subject}\r\n\r\nbody\r\n").encode("utf-8", "surrogatepass")


@schemathesis.serializer("application/toml")
def toml_serializer(ctx, value):
    """The fee schedule's TOML form is sent as the text it is."""
    if isinstance(value, bytes):
        return value
    return str(value).encode()
