"""The notice on a Hugging Face Space whose store sits on the Space's ephemeral disk."""
from __future__ import annotations

from pathlib import Path

from kb.settings import Settings

NOTICE = ("⚠️ 本应用运行在 Hugging Face Space 上，知识库存放在 Space 的临时磁盘（`{store}`）：重启后会从内置语料重建，"
          "访客上传的文档不会保留（它们本来也只属于上传时的浏览器会话）。要跨重启保留，请给 Space 挂载存储卷，"
          "并把 `ANNEX_STORE_DIR` 指向挂载路径（见 README）。")


def ephemeral_store(settings: Settings, app_dir: Path | None = None) -> bool:
    """On a Space, whether the store lies inside the app's own folder: that folder is rebuilt from the repo.

    A mounted volume is a path outside it (e.g. /data); anything inside the checkout is certainly lost at restart.
    """
    if not settings.space_id:
        return False
    app = (app_dir or Path.cwd()).resolve()
    store = settings.store_dir.resolve()
    return store == app or app in store.parents


def notice(settings: Settings, app_dir: Path | None = None) -> str:
    """The notice's Markdown, or "" when the store is not known to be ephemeral."""
    return NOTICE.format(store=settings.store_dir) if ephemeral_store(settings, app_dir) else ""
