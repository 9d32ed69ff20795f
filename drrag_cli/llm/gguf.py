"""What a GGUF file's header says, read without loading its weights.

    header = read_header(path)   # architecture, quantisation, parameters, chat template, split
    header.parameters            # 268_098_176: the element counts of its tensors, summed

A GGUF file opens with its metadata (key, type, value) and one record per tensor (name,
shape, type, offset); the weights follow. Both are walked here on a memory map, so a
262k-token vocabulary array is skipped by its lengths, never decoded, and nothing past the
tensor records is touched. A file that is not GGUF (v2 or v3), or whose header runs past
its end, is a :class:`ValueError` of one line.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"GGUF"
_STRING, _ARRAY = 8, 9
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
# llama.cpp's llama_ftype: general.file_type, the quantisation most tensors have
FILE_TYPES = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K", 11: "Q3_K_S",
    12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K",
    19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS", 23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL",
    26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16",
    36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4",
}  # fmt: skip
_KEPT = ("general.architecture", "general.name", "general.file_type", "general.size_label", "split.count")


@dataclass(frozen=True)
class Header:
    """The parts of a GGUF header a user chooses a model by."""

    architecture: str  # "gemma3", "llama", "qwen2"; "clip" is a vision projector, not a language model
    name: str  # general.name, "" when unset
    quantisation: str  # FILE_TYPES of general.file_type, "" when unset
    parameters: int  # elements of all tensors
    size_label: str  # general.size_label ("270M", "3B"), "" when unset
    chat_template: bool  # tokenizer.chat_template is set
    split: int  # split.count: 0 for a whole file, else the number of files the model spans

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def read_header(path: Path) -> Header:
    """The header of the GGUF at ``path``; a ValueError (one line) when it is not one."""
    try:
        with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return _parse(data)
    except (OSError, ValueError, struct.error, OverflowError) as exc:  # UnicodeDecodeError is a ValueError
        raise ValueError(f"{path} has no readable GGUF header ({exc})") from exc


def _parse(data: mmap.mmap) -> Header:
    if data[:4] != MAGIC:
        raise ValueError("not a GGUF file (no GGUF magic)")
    version, tensors, keys = struct.unpack_from("<IQQ", data, 4)
    if version not in (2, 3):
        raise ValueError(f"GGUF version {version} is not supported (2 or 3)")
    at = 24
    found: dict[str, object] = {}
    template = False
    for _ in range(keys):
        key, at = _string(data, at)
        (kind,) = struct.unpack_from("<I", data, at)
        value, at = _value(data, at + 4, kind, keep=key in _KEPT)
        if key in _KEPT:
            found[key] = value
        template = template or (key == "tokenizer.chat_template" and bool(value))
    parameters = 0
    for _ in range(tensors):
        _, at = _string(data, at)
        (dims,) = struct.unpack_from("<I", data, at)
        shape = struct.unpack_from(f"<{dims}Q", data, at + 4)
        at += 4 + 8 * dims + 4 + 8  # shape, type, offset
        count = 1
        for n in shape:
            count *= n
        parameters += count
    file_type = found.get("general.file_type")
    return Header(
        architecture=str(found.get("general.architecture", "")),
        name=str(found.get("general.name", "")),
        quantisation=FILE_TYPES.get(file_type, f"type {file_type}") if isinstance(file_type, int) else "",
        parameters=parameters,
        size_label=str(found.get("general.size_label", "")),
        chat_template=template,
        split=int(found.get("split.count", 0) or 0),  # type: ignore[call-overload]
    )


def _string(data: mmap.mmap, at: int) -> tuple[str, int]:
    (n,) = struct.unpack_from("<Q", data, at)
    end = at + 8 + n
    if end > len(data):
        raise ValueError("the header runs past the end of the file")
    return data[at + 8 : end].decode("utf-8"), end


def _value(data: mmap.mmap, at: int, kind: int, *, keep: bool) -> tuple[object, int]:
    """(the value, where the next field starts); an array is skipped, not decoded. A
    string not ``keep`` is skipped too, except for its truth (the chat template's)."""
    if kind in _SCALARS:
        code = "<" + _SCALARS[kind]
        return struct.unpack_from(code, data, at)[0], at + struct.calcsize(code)
    if kind == _STRING:
        (n,) = struct.unpack_from("<Q", data, at)
        if keep:
            return _string(data, at)
        return n > 0, at + 8 + n
    if kind == _ARRAY:
        inner, count = struct.unpack_from("<IQ", data, at)
        at += 12
        if inner in _SCALARS:
            return None, at + count * struct.calcsize("<" + _SCALARS[inner])
        for _ in range(count):
            _, at = _value(data, at, inner, keep=False)
        return None, at
    raise ValueError(f"unknown GGUF value type {kind}")
