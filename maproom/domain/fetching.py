"""Which URLs the server itself may fetch (a remote COG read through rio-tiler).

A URL given by a client is fetched by the server only when it is http(s) and every address
its host resolves to is a public (globally routable) one: loopback, private, link-local
(which holds the cloud metadata address 169.254.169.254), carrier-grade NAT, multicast,
reserved and unspecified addresses are refused, so a map layer cannot be used to read the
server's own network. The resolution is checked again at fetch time, not only when the layer
is added, so a name that later points inward is refused too. `MAPROOM_FETCH_ALLOWLIST` lists
hosts, addresses or networks (CIDR) that are let through anyway, for a COG server on the same
private network.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from maproom.errors import BadRequest

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def check_scheme(url: str, path: str = "url") -> str:
    """An http(s) URL with a host, or a 400 naming `path`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequest(
            "The URL must be http or https, with a host",
            details=[{"path": path, "message": "expected an http(s) URL"}],
        )
    return parts.hostname


def check_fetchable(url: str, allowlist: Iterable[str] = (), path: str = "url") -> None:
    """Refuse (400) a URL the server must not fetch; see the module docstring."""
    host = check_scheme(url, path)
    allowed = [entry.strip().lower() for entry in allowlist if entry.strip()]
    if host.lower() in allowed:
        return
    for address in _resolve(host, path):
        if any(_in(address, entry) for entry in allowed):
            continue
        if not address.is_global or address.is_multicast:
            raise BadRequest(
                f"Refusing to fetch {host}: it resolves to a non-public address ({address})",
                details=[{"path": path, "message": "the host resolves to a non-public address"}],
            )


def _resolve(host: str, path: str) -> list[Address]:
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        raise BadRequest(
            f"The host {host} does not resolve",
            details=[{"path": path, "message": "the host does not resolve"}],
        ) from None
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def _in(address: Address, entry: str) -> bool:
    try:
        return address in ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False
