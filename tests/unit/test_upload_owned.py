"""Each upload its own file (ui/upload_owned.py): moved out of Gradio's content-hash path into a folder of its own."""
from __future__ import annotations

from pathlib import Path

import pytest

from ui.upload_owned import UploadLost, UploadOwner


def _gradio_upload(folder: Path, text: str, name: str = "通知.md") -> str:
    """A file where Gradio's /upload leaves it: <folder>/<hash of the bytes>/<name>."""
    path = folder / "eed04fc7" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_each_upload_of_the_same_bytes_gets_a_path_of_its_own_and_gradio_tracks_it(tmp_path):
    tracked: set[str] = {"/gone/before"}
    owner = UploadOwner(tracked, folder=lambda: str(tmp_path))
    [first] = owner.own([_gradio_upload(tmp_path, "值班电话 0571-86001234")])
    [second] = owner.own([_gradio_upload(tmp_path, "值班电话 0571-86001234")])
    assert first != second and Path(first).name == Path(second).name == "通知.md"
    assert not (tmp_path / "eed04fc7").exists()  # the shared hash path is gone: nobody holds it
    Path(first).unlink()  # one tab's copy deleted (ingested, refused, its tab closed)
    assert Path(second).read_text(encoding="utf-8") == "值班电话 0571-86001234"
    assert tracked == {"/gone/before", first, second}  # Gradio's cleanup sees the owned paths, not the hash path


def test_gradios_upload_set_forgets_deleted_files_as_it_grows(tmp_path):
    from ui.upload_owned import TRACKED_BEFORE_PRUNE

    tracked: set[str] = set()
    owner = UploadOwner(tracked, folder=lambda: str(tmp_path))
    for n in range(TRACKED_BEFORE_PRUNE + 10):
        [owned] = owner.own([_gradio_upload(tmp_path, str(n))])
        Path(owned).unlink()  # ingested at once
    assert len(tracked) < 20  # not one entry per upload for ever


def test_an_identical_upload_whose_file_the_first_move_took_gets_a_link_of_it(tmp_path):
    owner = UploadOwner(folder=lambda: str(tmp_path))
    hashed = _gradio_upload(tmp_path, "同一份")  # Gradio renamed two identical uploads onto this one path
    [first] = owner.own([hashed])
    [second] = owner.own([hashed])  # the second's answer names the path the first one's move emptied
    assert first != second and Path(second).read_text(encoding="utf-8") == "同一份"
    Path(first).unlink()
    assert Path(second).read_text(encoding="utf-8") == "同一份"


def test_an_upload_whose_bytes_are_gone_everywhere_is_refused_and_leaves_nothing(tmp_path):
    owner = UploadOwner(folder=lambda: str(tmp_path))
    hashed = _gradio_upload(tmp_path, "同一份")
    [first] = owner.own([hashed])
    Path(first).unlink()
    other = _gradio_upload(tmp_path, "另一份", "另一个.md")
    with pytest.raises(UploadLost):
        owner.own([other, hashed])  # the upload's other file is not kept half-owned either
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_a_path_outside_the_upload_folder_is_left_alone(tmp_path):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("x", encoding="utf-8")
    owner = UploadOwner(folder=lambda: str(tmp_path / "uploads"))
    assert owner.own([str(outside)]) == [str(outside)] and outside.exists()
