"""Adapters: maproom's ports implemented on what lies outside it, chosen by settings and
wired in `maproom.runtime` (docs/architecture.md).

    redis.py    the bus and the rate limiter several workers share (`MAPROOM_REDIS_URL`)
    remote.py   files read by HTTP ranges from another server (remote COGs, basemap styles),
                the connection pinned to a checked address

The domain and storage layers never import this package: they name the ports
(`maproom.events.bus.Bus`, `maproom.domain.ratelimit.RateLimiter`, the openers and fetchers
they are given), and `runtime` hands them an adapter.
"""
