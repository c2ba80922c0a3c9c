"""URL safety: what the server refuses to fetch, and the allow-list."""

from __future__ import annotations

import ipaddress

import pytest

from maproom.domain.urlpolicy import ALLOWED, check_scheme, check_url, fetch_address
from maproom.errors import BadGateway, BadRequest


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/cog.tif",
        "http://localhost:8000/cog.tif",
        "http://10.1.2.3/cog.tif",
        "http://172.16.0.1/cog.tif",
        "http://192.168.1.10/cog.tif",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.100.100.200/",
        "http://[::1]/cog.tif",
        "http://[fd00:ec2::254]/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
    ],
)
def test_non_public_addresses_are_refused(url: str) -> None:
    with pytest.raises(BadGateway, match=r"non-public address|does not resolve"):
        fetch_address(url)


@pytest.mark.parametrize(
    "url", ["ftp://example.com/a.tif", "file:///etc/passwd", "http://", "nope"]
)
def test_only_http_urls_with_a_host(url: str) -> None:
    with pytest.raises(BadRequest):
        check_scheme(url)


def test_public_addresses_pass() -> None:
    assert fetch_address("https://8.8.8.8/cog.tif") == ipaddress.ip_address("8.8.8.8")
    assert str(fetch_address("http://[2606:4700:4700::1111]/cog.tif")) == "2606:4700:4700::1111"


def test_the_allowlist_lets_hosts_addresses_and_networks_through() -> None:
    assert str(fetch_address("http://127.0.0.1:9000/cog.tif", ["127.0.0.1"])) == "127.0.0.1"
    assert str(fetch_address("http://10.1.2.3/cog.tif", ["10.0.0.0/8"])) == "10.1.2.3"
    assert fetch_address("http://localhost/cog.tif", ["localhost"]).is_loopback
    with pytest.raises(BadGateway):
        fetch_address("http://10.1.2.3/cog.tif", ["192.168.0.0/16"])


def test_what_the_allowlist_lets_through_may_be_given_too() -> None:
    """A client may name the operator's allow-listed COG server in an action."""
    with pytest.raises(ValueError, match="private"):
        check_url("http://10.1.2.3/cog.tif")
    token = ALLOWED.set(("10.0.0.0/8", "tiles.internal"))
    try:
        assert check_url("http://10.1.2.3/cog.tif")
        with pytest.raises(ValueError, match="private"):
            check_url("http://192.168.1.1/cog.tif")
    finally:
        ALLOWED.reset(token)


def test_unresolvable_hosts_are_refused() -> None:
    with pytest.raises(BadGateway, match="does not resolve"):
        fetch_address("http://no-such-host.invalid/cog.tif")


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost/t/{z}/{x}/{y}.png",
        "http://LOCALHOST./t.png",
        "http://tiles.localhost/t.png",
        "http://127.0.0.1/t.png",
        "http://127.1/t.png",
        "http://2130706433/t.png",
        "http://0x7f000001/t.png",
        "http://0x7f.0.0.1/t.png",
        "http://0177.0.0.1/t.png",
        "http://017700000001/t.png",
        "http://127.0.0.1./t.png",
        "http://0/t.png",
        "http://[::1]/t.png",
        "http://[::ffff:127.0.0.1]/t.png",
        "http://[::ffff:7f00:1]/t.png",
        "http://[0:0:0:0:0:ffff:a9fe:a9fe]/latest/meta-data/",
        "http://[64:ff9b::a9fe:a9fe]/t.png",
        "http://[2002:7f00:1::]/t.png",
        "http://[fe80::1%25eth0]/t.png",
        "http://10.0.0.1/t.png",
        "http://169.254.169.254/latest/",
        "http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/t.png",
        "https://user:secret@tiles.example.com/t.png",
        "https://user@tiles.example.com/t.png",
        "ftp://tiles.example.com/t.png",
        "javascript:alert(1)",
        "https:///t.png",
        "http://[::1/t.png",
    ],
)
def test_literal_non_public_hosts_localhost_and_credentials_are_refused(url: str) -> None:
    with pytest.raises(ValueError):
        check_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        "https://no-such-host.invalid/{z}/{x}/{y}.png",
        "http://8.8.8.8/t.png",
        "http://[2606:4700:4700::1111]/t.png",
        "https://beef.cafe/t.png",
        "https://localhost.example.com/t.png",
    ],
)
def test_public_literals_and_any_name_pass_without_a_lookup(url: str) -> None:
    assert check_url(url) == url
