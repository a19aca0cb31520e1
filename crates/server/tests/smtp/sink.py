"""A real SMTP server for the email tests and benchmark (aiosmtpd, Debian's python3-aiosmtpd).

Usage: sink.py PORT DIR [CERT KEY]

With CERT and KEY (PEM files) it speaks implicit TLS (SMTPS): TLS from the first byte.

Every message accepted is written to DIR as <n>.eml with a <n>.json beside it holding the
envelope (mail_from, rcpt_tos). Behaviour is read from DIR/control.json before each
transaction, so a test can change it while the server runs:
  {"reject": {"addr@x": 550}, "defer": {"addr@x": 451}, "delay_ms": 0, "rcpt_delay_ms": 0, "store": true}
A recipient in "reject"/"defer" gets that reply at RCPT TO. "store": false only counts (the
benchmark). The server prints "ready" once it listens.
"""

import asyncio
import json
import os
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0

    def control(self):
        try:
            with open(os.path.join(self.directory, "control.json")) as f:
                return json.load(f)
        except (FileNotFoundError, ValueError):
            return {}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        c = self.control()
        # A slow relay before the message is handed over: a client that dies now has sent
        # nothing, unlike during delay_ms (after the final dot, before the 250).
        if c.get("rcpt_delay_ms"):
            await asyncio.sleep(c["rcpt_delay_ms"] / 1000)
        for kind in ("reject", "defer"):
            code = c.get(kind, {}).get(address.lower())
            if code:
                return f"{code} {'5.1.1 mailbox unavailable' if code >= 500 else '4.3.0 try again later'}"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        c = self.control()
        delay = c.get("delay_ms", 0)
        if delay:
            await asyncio.sleep(delay / 1000)
        self.count += 1
        n = self.count
        if c.get("store", True):
            base = os.path.join(self.directory, f"{os.getpid()}-{n:06d}")
            with open(base + ".tmp", "wb") as f:
                f.write(envelope.original_content or envelope.content)
            with open(base + ".json", "w") as f:
                json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
            os.rename(base + ".tmp", base + ".eml")
        return f"250 2.0.0 Ok: queued as {os.getpid()}-{n}"


def main():
    port, directory = int(sys.argv[1]), sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    tls = None
    if len(sys.argv) > 4:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(sys.argv[3], sys.argv[4])
    # No size limit beyond the tests' own (30 MiB of attachments, base64).
    controller = Controller(Sink(directory), hostname="127.0.0.1", port=port, ssl_context=tls,
                            server_kwargs={"data_size_limit": 64 * 1024 * 1024})
    controller.start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
