"""Reads one thing of every group through a client that openapi-python-client generated from
the served document (crates/server/tests/server/generated_client.rs runs it). Only the generated code
talks to the server: its functions, its models and their typed attributes, no raw JSON.

Usage: read_every_group.py PACKAGE_DIR BASE_URL TOKEN IDS_JSON
IDS_JSON names what the test made beforehand ({"user", "account", "deposit", "message",
"routingNumber", "view": {"table", "name"}}). Prints one JSON object: group (the document's tag) -> what was read, in the
API's field names, for the test to compare with the server's own answers.
"""

import enum
import json
import sys

sys.path.insert(0, sys.argv[1])

from moneydesk_client import AuthenticatedClient  # noqa: E402
from moneydesk_client.types import Unset  # noqa: E402
from moneydesk_client.api.accounts import list_accounts  # noqa: E402
from moneydesk_client.api.audit import list_audit_records  # noqa: E402
from moneydesk_client.api.auth import me  # noqa: E402
from moneydesk_client.api.cash_letters import get_cash_letter, list_cash_letters  # noqa: E402
from moneydesk_client.api.deposits import get_deposit  # noqa: E402
from moneydesk_client.api.email import message  # noqa: E402
from moneydesk_client.api.events import list_events  # noqa: E402
from moneydesk_client.api.fees import ach_fees  # noqa: E402
from moneydesk_client.api.ledger import balances  # noqa: E402
from moneydesk_client.api.overview import get_overview  # noqa: E402
from moneydesk_client.api.permissions import list_permissions  # noqa: E402
from moneydesk_client.api.routing import ach_validate  # noqa: E402
from moneydesk_client.api.search import search_everything  # noqa: E402
from moneydesk_client.api.tokens import list_tokens  # noqa: E402
from moneydesk_client.api.vault import contents  # noqa: E402
from moneydesk_client.api.views import get_saved_view, list_saved_views  # noqa: E402
from moneydesk_client.api.webhooks import list_webhook_endpoints  # noqa: E402


def plain(value):
    """A generated value as JSON: unset is null, an enum its wire value."""
    if isinstance(value, Unset):
        return None
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def ok(response):
    """The parsed answer, which must be a 2xx read into one of the generated models."""
    assert 200 <= response.status_code < 300, f"{response.status_code}: {response.content!r}"
    parsed = response.parsed
    assert type(parsed).__module__.startswith("moneydesk_client.models."), f"{type(parsed)}: {response.content!r}"
    return parsed


def error(response, status):
    """The error envelope of a refused request, read through the generated ErrorEnvelope."""
    assert response.status_code == status, f"{response.status_code}: {response.content!r}"
    e = response.parsed
    assert type(e).__name__ == "ErrorEnvelope", type(e).__name__
    errors = plain(e.errors) or []
    return {
        "status": response.status_code,
        "code": e.code,
        "errorMessage": plain(e.error_message),
        "error": plain(e.error),
        "reason": plain(e.reason),
        "errors": [{"field": f.field, "problem": f.problem} for f in errors],
        "data": plain(e.data),
    }


def main():
    _, _, base_url, token, ids = sys.argv
    ids = json.loads(ids)
    c = AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True)
    read = {}

    session = ok(me.sync_detailed(client=c)).data
    read["auth"] = {"name": session.name, "scopes": plain(session.scopes), "userId": plain(session.user_id)}

    page = ok(list_accounts.sync_detailed(client=c, size=1)).data
    a = page.content[0]
    read["accounts"] = {
        "totalElements": page.total_elements,
        "id": a.id,
        "accountName": a.account_name,
        "accountType": plain(a.account_type),
        "accountStatus": plain(a.account_status),
    }

    page = ok(list_permissions.sync_detailed(client=c, size=1)).data
    p = page.content[0]
    read["permissions"] = {
        "totalElements": page.total_elements,
        "userId": p.user_id,
        "companyName": p.company_name,
        "scope": plain(p.scope),
    }

    r = ok(ach_validate.sync_detailed(client=c, routing_number=ids["routingNumber"]))
    read["routing"] = {
        "routingNumber": r.routing_number,
        "customerName": r.customer_name,
        "customerCity": r.customer_city,
        "customerState": r.customer_state,
        "servicingFRBNumber": r.servicing_frb_number,
        "refused": error(ach_validate.sync_detailed(client=c, routing_number="12"), 400),
    }

    quote = ok(ach_fees.sync_detailed(client=c, transfer_type="EFT", amount="500.00"))
    read["fees"] = {
        "status": quote.status,
        "data": [{"fee_type": plain(f.fee_type), "fee_amount": f.fee_amount} for f in quote.data],
    }

    d = ok(get_deposit.sync_detailed(ids["deposit"], client=c)).data
    read["deposits"] = {
        "id": d.record.id,
        "amount": d.record.amount,
        "memo": plain(d.record.memo),
        "status": plain(d.record.status),
        "sleeveAccountId": plain(d.record.sleeve_account_id),
        "serviceType": plain(d.service_type),
    }

    b = ok(balances.sync_detailed(ids["account"], client=c)).data
    read["ledger"] = {"accountId": b.account_id, "posted": b.posted, "pending": b.pending, "held": b.held}

    page = ok(list_cash_letters.sync_detailed(client=c)).data
    read["cash-letters"] = {
        "totalElements": page.total_elements,
        "missing": error(get_cash_letter.sync_detailed(999999, client=c), 404),
    }

    m = ok(message.sync_detailed(ids["message"], client=c)).data
    read["email"] = {
        "id": m.id,
        "subject": m.subject,
        "state": plain(m.state),
        "headers": [{"name": h.name, "value": h.value} for h in m.headers],
    }

    page = ok(contents.sync_detailed(ids["user"], client=c, path="/")).data
    read["vault"] = [{"name": e.name, "kind": plain(e.kind)} for e in page.content]

    page = ok(list_events.sync_detailed(client=c, size=1)).data
    e = page.content[0]
    read["events"] = {"type": e.type_, "objectType": e.object_type, "objectId": e.object_id}

    page = ok(list_audit_records.sync_detailed(client=c, size=1)).data
    rec = page.content[0]
    read["audit"] = {
        "operation": rec.operation,
        "targetId": plain(rec.target_id),
        "outcome": plain(rec.outcome),
        "userId": plain(rec.actor.user_id),
    }

    endpoints = ok(list_webhook_endpoints.sync_detailed(client=c)).data
    read["webhooks"] = [
        {"url": w.url, "eventTypes": plain(w.event_types), "enabled": w.enabled} for w in endpoints
    ]

    listed = ok(list_tokens.sync_detailed(client=c)).data
    read["tokens"] = [
        {"id": t.id, "name": t.name, "userId": t.user_id, "scopes": plain(t.scopes), "expiresAt": plain(t.expires_at)}
        for t in listed
    ]

    view = ok(get_saved_view.sync_detailed(ids["view"]["table"], ids["view"]["name"], client=c)).data
    views = ok(list_saved_views.sync_detailed(client=c, table=ids["view"]["table"])).data
    assert [v.id for v in views] == [view.id], f"{views!r} lacks {view!r}"
    read["views"] = [
        {"id": v.id, "table": v.table, "name": v.name, "query": v.query, "createdAt": v.created_at, "updatedAt": v.updated_at}
        for v in views
    ]

    found = ok(search_everything.sync_detailed(client=c, q=ids["routingNumber"], limit=3)).data
    read["search"] = {
        "q": found.q,
        "shape": plain(found.shape),
        "groups": [
            {
                "group": plain(g.group),
                "more": g.more,
                "hits": [{"id": h.id, "match": plain(h.match), "field": h.field, "open": h.open_} for h in g.hits],
            }
            for g in found.groups
        ],
    }

    o = ok(get_overview.sync_detailed(client=c)).data
    read["overview"] = {
        "day": o.day,
        "depositsToday": o.deposits_today.total.count,
        "toConfirm": o.waiting.to_confirm.count,
        "routingStale": o.routing_directory.stale,
        "vaultFiles": o.vault.files,
    }

    json.dump(read, sys.stdout)


main()
