"""Streaming `multipart/form-data` uploads: the `file` part goes straight to a temporary file.

The body is parsed as it arrives (python-multipart's push parser), never held whole: the file
part is written chunk by chunk, its extension is checked as soon as its headers arrive (415
before any byte is stored), and the upload is cut off with 413 the moment it passes the ceiling.
Whatever goes wrong, the temporary file is removed before the error leaves.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from fastapi import Request
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from maproom.errors import BadRequest, PayloadTooLarge
from maproom.limits import control_character

FIELD_LIMIT = 64 * 1024
FILE_FIELD = "file"


@dataclass
class Upload:
    """A received upload: the file on disk, its client-side name, and the small text fields."""

    path: Path
    file_name: str
    fields: dict[str, str] = field(default_factory=dict)


class _Receiver:
    """Callbacks for the push parser: one part at a time."""

    def __init__(self, scratch: Path, max_bytes: int, accept: Callable[[str], object]) -> None:
        self.scratch, self.max_bytes, self.accept = scratch, max_bytes, accept
        self.headers: dict[bytes, bytes] = {}
        self.header_field = self.header_value = b""
        self.part_name: str | None = None
        self.field_value = bytearray()
        self.file: IO[bytes] | None = None
        self.upload: Upload | None = None
        self.fields: dict[str, str] = {}
        self.file_bytes = 0

    def callbacks(self) -> dict[str, Any]:
        return {
            "on_part_begin": self.part_begin,
            "on_header_field": lambda d, s, e: self._add("header_field", d[s:e]),
            "on_header_value": lambda d, s, e: self._add("header_value", d[s:e]),
            "on_header_end": self.header_end,
            "on_headers_finished": self.headers_finished,
            "on_part_data": self.part_data,
            "on_part_end": self.part_end,
        }

    def _add(self, name: str, data: bytes) -> None:
        setattr(self, name, getattr(self, name) + data)

    def part_begin(self) -> None:
        self.headers, self.part_name, self.field_value = {}, None, bytearray()

    def header_end(self) -> None:
        self.headers[self.header_field.lower()] = self.header_value
        self.header_field = self.header_value = b""

    def headers_finished(self) -> None:
        _, options = parse_options_header(self.headers.get(b"content-disposition", b""))
        self.part_name = options.get(b"name", b"").decode("utf-8", "replace")
        file_name = options.get(b"filename")
        if self.part_name == FILE_FIELD and file_name is not None and self.upload is None:
            name = Path(file_name.decode("utf-8", "replace").replace("\\", "/")).name
            self.accept(name)
            self.file = tempfile.NamedTemporaryFile(dir=self.scratch, delete=False)  # noqa: SIM115
            self.upload = Upload(Path(self.file.name), name)

    def part_data(self, data: bytes, start: int, end: int) -> None:
        if self.file is not None:
            self.file_bytes += end - start
            if self.file_bytes > self.max_bytes:
                raise PayloadTooLarge(f"The file is larger than the {self.max_bytes}-byte limit")
            self.file.write(data[start:end])
        else:
            self.field_value += data[start:end]
            if len(self.field_value) > FIELD_LIMIT:
                raise BadRequest(f"Form field {self.part_name!r} is too long")

    def part_end(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
        elif self.part_name:
            self.fields[self.part_name] = self.field_value.decode("utf-8", "replace")

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
        if self.upload is not None:
            self.upload.path.unlink(missing_ok=True)


async def receive_upload(
    request: Request, *, scratch: Path, max_bytes: int, accept: Callable[[str], object]
) -> Upload:
    """Stream the request's multipart body; the `file` part lands in a file under `scratch`."""
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if content_type != b"multipart/form-data" or not boundary:
        raise BadRequest(
            "Upload the file as multipart/form-data in a field named 'file'",
            details=[{"path": "body", "message": "expected multipart/form-data"}],
        )
    receiver = _Receiver(scratch, max_bytes, accept)
    parser = MultipartParser(boundary, receiver.callbacks())  # type: ignore[arg-type]
    try:
        async for chunk in request.stream():
            parser.write(chunk)
        parser.finalize()
    except MultipartParseError as exc:
        receiver.discard()
        raise BadRequest(f"Malformed multipart body: {exc}") from None
    except BaseException:
        receiver.discard()
        raise
    if receiver.upload is None or (receiver.file_bytes == 0 and not receiver.upload.file_name):
        receiver.discard()
        raise BadRequest(
            "No file in the upload",
            details=[{"path": FILE_FIELD, "message": "a file part named 'file' is required"}],
        )
    named = {FILE_FIELD: receiver.upload.file_name, **receiver.fields}
    for name, value in named.items():
        message = control_character(value)
        if message:
            receiver.discard()
            raise BadRequest(f"{name}: {message}", details=[{"path": name, "message": message}])
    receiver.upload.fields = receiver.fields
    return receiver.upload
