"""What the several-worker tests start: fresh PostgreSQL databases, an S3-protocol server
(moto's standalone server on loopback), `maproom serve` processes, and Redis from the
environment (`MAPROOM_TEST_REDIS_URL`, set by `.ci/run`)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.serving import free_port

REDIS_ENV = "MAPROOM_TEST_REDIS_URL"
S3_ENV = {
    "AWS_ACCESS_KEY_ID": "maproom-test",
    "AWS_SECRET_ACCESS_KEY": "maproom-test",
    "AWS_DEFAULT_REGION": "us-east-1",
}
CLI = [sys.executable, "-m", "maproom.cli"]


def deployment_env(database: str, redis: str, s3_endpoint: str) -> dict[str, str]:
    """The settings of workers on PostgreSQL, Redis and S3: the same names as deploy/."""
    return {
        **S3_ENV,
        "AWS_ENDPOINT_URL": s3_endpoint,
        "MAPROOM_DATABASE_URL": database,
        "MAPROOM_REDIS_URL": redis,
        "MAPROOM_STORAGE_URL": "s3://maproom-test/deployment",
        "MAPROOM_RATE_LIMIT_PER_MINUTE": "300",
    }


def redis_url() -> str:
    """The Redis under test; skips when unset, fails when set but unreachable."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set: several-worker tests not run")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as exc:
        pytest.fail(f"{REDIS_ENV}={url} is set but Redis is unreachable: {exc}")
    return url


@contextlib.contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the server under test (dropped afterwards)."""
    name = f"maproom_scale_{uuid.uuid4().hex[:12]}"
    admin = make_url(server_url).set(drivername="postgresql")
    admin_url = admin.render_as_string(hide_password=False)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without maproom or AWS settings, plus `extra`."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("MAPROOM_", "AWS_"))}
    return {**kept, **extra}


def _wait_for(url: str, process: subprocess.Popen[Any], log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, f"exited early:\n{log.read_text(errors='replace')}"
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer:\n{log.read_text()}"
        time.sleep(0.05)


@contextlib.contextmanager
def moto_server(bucket: str = "maproom-test") -> Iterator[str]:
    """An S3-protocol server on a loopback port, with `bucket` made; yields its endpoint."""
    import boto3

    port = free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"moto-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=environment({}),
        )  # fmt: skip
    endpoint = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{endpoint}/moto-api/", process, log)
        client = boto3.client("s3", endpoint_url=endpoint, **_boto_credentials())
        client.create_bucket(Bucket=bucket)
        yield endpoint
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.unlink(missing_ok=True)


def _boto_credentials() -> dict[str, str]:
    return {
        "aws_access_key_id": S3_ENV["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": S3_ENV["AWS_SECRET_ACCESS_KEY"],
        "region_name": S3_ENV["AWS_DEFAULT_REGION"],
    }


def bucket_objects(env: dict[str, str], bucket: str, prefix: str) -> list[tuple[str, int]]:
    """(key, size) of every object under `prefix` in the bucket of `env`'s endpoint."""
    import boto3

    client = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], **_boto_credentials())
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    return [(item["Key"], item["Size"]) for page in pages for item in page.get("Contents", ())]


@dataclass
class Worker:
    """One `maproom serve` process."""

    process: subprocess.Popen[Any]
    base: str
    data_dir: Path
    log: Path

    def wait_ready(self) -> None:
        """Until `/readyz` answers 200."""
        _wait_for(f"{self.base}/readyz", self.process, self.log)
        assert httpx.get(f"{self.base}/readyz", timeout=5).status_code == 200, self.log.read_text()


@contextlib.contextmanager
def start_worker(env: dict[str, str], data_dir: Path, *, wait: bool = True) -> Iterator[Worker]:
    """A `maproom serve` process with these settings and its own data dir; stopped at the end."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = data_dir.parent / f"{data_dir.name}-server.log"
    out: IO[bytes] = log.open("wb")
    process = subprocess.Popen(
        [*CLI, "serve", "--port", str(port), "--data-dir", str(data_dir), "--no-access-log"],
        env=environment(env), stdout=out, stderr=subprocess.STDOUT,
    )  # fmt: skip
    worker = Worker(process, f"http://127.0.0.1:{port}", data_dir, log)
    try:
        if wait:
            worker.wait_ready()
        yield worker
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        out.close()


def cli_key(env: dict[str, str], data_dir: Path, email: str) -> str:
    """A new key made by `maproom keys create` with these settings."""
    made = subprocess.run(
        [*CLI, "keys", "create", "--account", email, "--data-dir", str(data_dir)],
        env=environment(env), capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return made.stdout.strip()


@contextlib.contextmanager
def cluster_of_two(
    tmp_path: Path, pg_server: str, **settings: str
) -> Iterator[tuple[Worker, Worker, dict[str, str]]]:
    """Workers A and B on one fresh database, one Redis and one bucket (their environment
    plus `settings`); yields both and the environment."""
    with fresh_database(pg_server) as database, moto_server() as s3:
        env = deployment_env(database, redis_url(), s3) | settings
        with start_worker(env, tmp_path / "a") as a, start_worker(env, tmp_path / "b") as b:
            yield a, b, env
