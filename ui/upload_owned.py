"""Each upload its own file: the same bytes sent from two tabs are two files, so neither tab can take the other's.

Gradio's /gradio_api/upload files an upload as <upload folder>/<hash of its bytes>/<its name>: two visitors (or two
tabs) sending one document byte for byte were given one path. When the first tab ingested it, was refused or closed,
that file was deleted (ui/uploaded.py discard_uploads) under the second, whose 入库 then found nothing. Here each path
Gradio answers is moved, in the same step, to a folder of its own, <upload folder>/<random>/<name>, and the answer
names that path: what a tab holds, ingests and deletes is its own. A second upload of the same bytes whose file the
first one's move took (Gradio renames each upload onto the same path) is given a hard link of the first's, whose bytes
are the same; if that is gone too, it is refused and asked to upload again.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from gradio.utils import get_upload_folder

OWNED_NAME_BYTES = 16  # the random folder's name: 128 bits, so no path can be guessed, nor two uploads meet
TRACKED_BEFORE_PRUNE = 1000  # paths in Gradio's upload set before the gone ones are dropped
MOVES_REMEMBERED = 256  # hash paths whose last move is kept for an identical upload racing it; a race lasts µs
UPLOAD_LOST = "上传的文件在保存时被另一个相同的上传同时移走了：请重新选择文件上传。"


class UploadLost(Exception):
    """An upload's file was gone before it could be given its own path (it is asked again, never half-kept)."""


class UploadOwner:
    """Moves each file Gradio's upload answered to a folder of its own, and says what Gradio's cleanup should track."""

    def __init__(self, tracked: set[str] | None = None, folder: Callable[[], str] = get_upload_folder) -> None:
        # Gradio's upload_file_set: an owned file never ingested goes with its hour. Gradio never forgets a path
        # whose file is gone, so the moved hash paths are taken out, and deleted files pruned as the set doubles.
        self.tracked = set() if tracked is None else tracked
        self._pruned_at = 0
        self.folder = folder
        self._moved: OrderedDict[str, str] = OrderedDict()  # hash path → the owned path it was last moved to
        self._lock = threading.Lock()

    def own(self, paths: list[str]) -> list[str]:
        """Each path given its own folder, in order; UploadLost (the ones already moved removed) when one is gone."""
        owned: list[str] = []
        try:
            for path in paths:
                owned.append(self._own(path))
        except UploadLost:
            for done in map(Path, owned):  # each alone in the folder made for it
                done.unlink(missing_ok=True)
                done.parent.rmdir()
            raise
        self.tracked.difference_update(paths)
        self.tracked.update(owned)
        if len(self.tracked) > max(TRACKED_BEFORE_PRUNE, 2 * self._pruned_at):  # amortized: O(1) stats an upload
            self.tracked.difference_update([p for p in list(self.tracked) if not os.path.exists(p)])
            self._pruned_at = len(self.tracked)
        return owned

    def _own(self, path: str) -> str:
        root = Path(self.folder()).resolve()
        source = Path(path).resolve()
        if root not in source.parents:  # Gradio answers only files it wrote there; anything else is left as it is
            return path
        target = root / secrets.token_hex(OWNED_NAME_BYTES) / source.name
        target.parent.mkdir()
        with self._lock:  # a racing identical upload reads _moved only after this move is recorded
            try:
                os.rename(source, target)
            except FileNotFoundError:
                self._copy_moved(str(source), target)
            else:
                self._moved[str(source)] = str(target)
                self._moved.move_to_end(str(source))
                while len(self._moved) > MOVES_REMEMBERED:
                    self._moved.popitem(last=False)
        with contextlib.suppress(OSError):  # the hash folder: another upload of other bytes' name may still be in it
            source.parent.rmdir()
        return str(target)

    def _copy_moved(self, source: str, target: Path) -> None:
        """The file an identical upload's move took, linked (copied where links are not allowed) to `target`."""
        moved = self._moved.get(source)
        try:
            if moved is None:
                raise FileNotFoundError(source)
            try:
                os.link(moved, target)
            except FileNotFoundError:
                raise
            except OSError:  # a file system without hard links
                shutil.copyfile(moved, target)
        except FileNotFoundError as exc:
            target.parent.rmdir()
            raise UploadLost(source) from exc
