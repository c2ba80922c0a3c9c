"""URL safety: what the server refuses to fetch, and the allow-list."""

from __future__ import annotations

import pytest

from maproom.domain.fetching import check_fetchable, check_scheme
from maproom.errors import BadRequest


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
    with pytest.raises(BadRequest) as caught:
        check_fetchable(url, path="actions[0].url")
    assert caught.value.details[0]["path"] == "actions[0].url"


@pytest.mark.parametrize(
    "url", ["ftp://example.com/a.tif", "file:///etc/passwd", "http://", "nope"]
)
def test_only_http_urls_with_a_host(url: str) -> None:
    with pytest.raises(BadRequest):
        check_scheme(url)


def test_public_addresses_pass() -> None:
    check_fetchable("https://8.8.8.8/cog.tif")
    check_fetchable("http://[2606:4700:4700::1111]/cog.tif")


def test_the_allowlist_lets_hosts_addresses_and_networks_through() -> None:
    check_fetchable("http://127.0.0.1:9000/cog.tif", ["127.0.0.1"])
    check_fetchable("http://10.1.2.3/cog.tif", ["10.0.0.0/8"])
    check_fetchable("http://localhost/cog.tif", ["localhost"])
    with pytest.raises(BadRequest):
        check_fetchable("http://10.1.2.3/cog.tif", ["192.168.0.0/16"])


def test_unresolvable_hosts_are_refused() -> None:
    with pytest.raises(BadRequest):
        check_fetchable("http://no-such-host.invalid/cog.tif")
