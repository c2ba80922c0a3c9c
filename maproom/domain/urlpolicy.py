"""Which URLs maproom accepts from clients, and which it will fetch itself.

Two checks, at two moments (docs/actions.md):

- `check_url`, when a URL is given (a map action, a basemap style): `http` or `https`, a host,
  no credentials, and a host that is neither `localhost` nor a literal address outside the
  public internet, in any spelling a URL parser or `inet_aton` accepts (`127.1`, `2130706433`,
  `0x7f.0.0.1`, `0177.0.0.1`, `[::1]`, `[::ffff:127.0.0.1]`, full-width digits...), unless
  `MAPROOM_FETCH_ALLOWLIST` names it. Names are not resolved here: a name that does not
  resolve today is accepted (its tiles fail later).
- `fetch_address`, each time the server itself fetches (remote COG tiles, every redirect hop
  too): the name is resolved once and the server connects to the address this returns, which
  must be public unless `MAPROOM_FETCH_ALLOWLIST` names the host, the address or a network
  holding it (502 otherwise).

"Public" is `ipaddress`'s `is_global` and not multicast; IPv6 forms that embed an IPv4 address
(mapped, IPv4-compatible, 6to4, NAT64, Teredo) are judged by that address too.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from collections.abc import Iterable
from contextvars import ContextVar
from urllib.parse import urlsplit

from maproom.errors import BadGateway, BadRequest

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})  # what WHATWG URL maps
_LEGACY_IPV4 = re.compile(r"[0-9a-fx.]+", re.IGNORECASE).fullmatch
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated `::a.b.c.d`, still routed by some


# What `MAPROOM_FETCH_ALLOWLIST` lets through, for the request being handled (the service sets
# it per request): a client may name those hosts and networks too, or the operator's own COG
# server could be fetched from but never added.
ALLOWED: ContextVar[tuple[str, ...]] = ContextVar("maproom_fetch_allowlist", default=())


def check_url(url: str) -> str:
    """The URL unchanged if a client may give it; else ValueError saying why (no DNS lookup)."""
    try:
        parts = urlsplit(url)
        hostname, _ = parts.hostname, parts.port
    except ValueError:
        raise ValueError("must be a valid http(s) URL") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise ValueError("must be an http or https URL with a host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not carry credentials (user:password@)")
    host = normalise_host(hostname)
    allowed = [entry.strip().lower() for entry in ALLOWED.get()]
    address = literal_address(host)
    if host in allowed or (address is not None and any(_in(address, e) for e in allowed)):
        return url
    if host in LOCAL_NAMES or host.endswith(".localhost"):
        raise ValueError("must not point at localhost")
    if address is not None and not is_public(address):
        raise ValueError("must not point at a private, loopback or reserved address")
    return url


def normalise_host(host: str) -> str:
    """A host as resolvers see it: compatibility-normalised, lower case, no trailing dot."""
    return unicodedata.normalize("NFKC", host).translate(_DOTS).lower().rstrip(".")


def literal_address(host: str) -> Address | None:
    """The address a host name spells literally (any IPv4 or IPv6 spelling), or None."""
    bare = host.strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(bare)
    except ValueError:
        pass
    if _LEGACY_IPV4(bare):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(bare))
        except OSError:
            return None
    return None


def is_public(address: Address) -> bool:
    """Globally routable and not multicast, judging IPv6 forms that embed IPv4 by that too."""
    if not address.is_global or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address.teredo is not None:
            embedded = address.teredo[1]
        if embedded is None and (address in _NAT64 or address in _IPV4_COMPATIBLE):
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return is_public(embedded)
    return True


def check_scheme(url: str, path: str = "url") -> str:
    """An http(s) URL with a host, or a 400 naming `path`; returns the host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequest(
            "The URL must be http or https, with a host",
            details=[{"path": path, "message": "expected an http(s) URL"}],
        )
    return parts.hostname


def fetch_address(url: str, allowlist: Iterable[str] = ()) -> Address:
    """The one address the server may connect to for `url` (see the module docstring): the
    name is resolved once, here, and the caller connects to this address, never resolving
    again (a second lookup could answer otherwise). BadGateway when the host does not resolve
    or resolves to no address the server may fetch from."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadGateway("The remote source's URL is not an http(s) URL with a host")
    host = normalise_host(parts.hostname)
    allowed = [entry.strip().lower() for entry in allowlist if entry.strip()]
    addresses = _resolve(host)
    for address in addresses:
        if host in allowed or is_public(address) or any(_in(address, e) for e in allowed):
            return address
    raise BadGateway(
        f"Refusing to fetch from {host}: it resolves to a non-public address "
        "(MAPROOM_FETCH_ALLOWLIST can let it through)"
    )


def _resolve(host: str) -> list[Address]:
    literal = literal_address(host)
    if literal is not None:
        return [literal]
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        raise BadGateway(f"The remote source's host {host} does not resolve") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def _in(address: Address, entry: str) -> bool:
    try:
        return address in ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return False
