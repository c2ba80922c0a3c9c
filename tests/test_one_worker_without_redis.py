"""Without `MAPROOM_REDIS_URL`, a second `maproom serve` on the same database refuses to start,
naming the variable, rather than half work (docs/scaling.md); `--workers 2` refuses too. A worker
killed without a chance to say so does not stop the next one from starting."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from tests.scale.services import CLI, environment, start_worker
from tests.serving import free_port


def test_a_second_worker_without_redis_refuses_to_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with start_worker({}, data) as first:
        second = subprocess.run(
            [*CLI, "serve", "--port", str(free_port()), "--data-dir", str(data)],
            env=environment({}), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert second.returncode != 0
        assert "MAPROOM_REDIS_URL" in second.stdout + second.stderr
        assert first.process.poll() is None  # the first one still serves
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=30)
    with start_worker({}, data) as again:  # the dead one's registration is no obstacle
        assert again.process.poll() is None


def test_several_workers_need_redis(tmp_path: Path) -> None:
    refused = subprocess.run(
        [*CLI, "serve", "--workers", "2", "--port", str(free_port()), "--data-dir", str(tmp_path)],
        env=environment({}), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "MAPROOM_REDIS_URL" in refused.stderr
