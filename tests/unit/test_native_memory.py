"""kb/native_memory.py: after a large free, malloc_trim gives the memory back (this machine's libc is glibc)."""
from __future__ import annotations

import ctypes
import platform

import pytest

from kb.native_memory import release_free_memory


def _rss_kb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_memory_freed_in_small_blocks_goes_back_to_the_system():
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(4096) for _ in range(50_000)]  # 200 MB in blocks below mmap's threshold: the heap's
    for block in blocks:
        ctypes.memset(block, 1, 4096)
    for block in blocks[:-1]:  # the last stays, so the heap's top cannot shrink by itself
        libc.free(block)
    held = _rss_kb()
    assert release_free_memory()
    assert held - _rss_kb() > 150_000  # KB given back
    libc.free(blocks[-1])
