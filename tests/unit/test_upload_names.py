"""The name an uploaded file is stored under: the last path segment, refused with a reason, or shortened to fit."""
from __future__ import annotations

import pytest

from kb.errors import ParseError
from kb.ingest.presplit import presplit_name
from kb.ingest.uploads import NAME_MAX_BYTES, upload_name


@pytest.mark.parametrize(
    ("sent", "shown", "reason"),
    [
        ("..", "..", "carries no file name, only a folder"),
        ("foo/..", "foo/..", "carries no file name, only a folder"),
        ("a/b/", "a/b/", "carries no file name, only a folder"),
        ("", "(no name)", "carries no file name, only a folder"),
        ("预案\x00.md", "预案\\x00.md", "holds a control character (such as NUL)"),
        ("预案\ud800.md", "预案\\ud800.md", "is not valid Unicode"),
    ],
)
def test_unusable_names_are_refused_with_a_printable_name_and_a_reason(sent, shown, reason):
    with pytest.raises(ParseError) as info:
        upload_name(sent)
    assert info.value.file == shown and reason in info.value.reason
    str(info.value).encode("utf-8")  # printable in a JSON response: no NUL, no lone surrogate


def test_a_path_keeps_only_its_last_segment_with_either_separator():
    assert upload_name("../../etc/预案.md") == "预案.md"
    assert upload_name("C:\\Users\\me\\附件3-通讯录.docx") == "附件3-通讯录.docx"


def test_a_name_over_255_bytes_is_shortened_keeping_its_extension():
    name = "防" * 247 + ".md"  # 744 bytes in UTF-8: the file system refuses it
    short = upload_name(name)
    assert short.endswith(".md") and name.startswith(short[:-3])
    assert len(short.encode("utf-8")) <= NAME_MAX_BYTES < len((short[:-3] + "防.md").encode("utf-8"))
    assert upload_name(name) == short  # the same upload gets the same name again (the same document id)


def test_shortening_keeps_the_attachment_label_or_refuses():
    long_title = "东岭街道-附件3-" + "应急联系人通讯录" * 40 + ".md"
    short = upload_name(long_title)
    assert presplit_name(short).label == "附件3" and presplit_name(short).parent == "东岭街道"
    with pytest.raises(ParseError, match="shortening it would lose its 附件 label"):
        upload_name("预" * 247 + "-附件3-通讯录.md")


def test_a_name_whose_extension_alone_is_too_long_is_refused():
    with pytest.raises(ParseError, match="even without its stem"):
        upload_name("a." + "x" * 300)
