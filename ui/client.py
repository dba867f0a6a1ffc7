"""Who sent a request, for the wrong-token limit: the connecting address, or the one a trusted proxy appended.

Behind a proxy (a Hugging Face Space's) every request arrives from the proxy's address, so a limit keyed on it
would let one visitor's flood of wrong tokens lock out everyone, the token's holder included. Each proxy appends
the address it was reached from to X-Forwarded-For; with ANNEX_PROXY_HOPS=N proxies in front of the app, the
entry N from the right is the client's. Entries further left were written by the client and prove nothing, so they
are never read; with ANNEX_PROXY_HOPS=0 (the default) the header is ignored altogether.
"""
from __future__ import annotations

from collections.abc import Mapping


def client_address(peer: str, headers: Mapping[str, str], hops: int) -> str:
    """The address wrong tokens are counted against: `peer` (the connection's), or with `hops` trusted proxies the
    address the outermost of them saw; the peer when the header holds fewer entries than that."""
    if hops <= 0:
        return peer
    forwarded = [entry.strip() for entry in headers.get("x-forwarded-for", "").split(",") if entry.strip()]
    return forwarded[-hops] if len(forwarded) >= hops else peer
