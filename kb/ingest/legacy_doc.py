"""Read a legacy Word .doc through a real converter: LibreOffice headless (to .docx, then read as one), else
antiword; without either, the error names what to install."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from kb.errors import ParseError
from kb.ingest.docx_text import read_docx
from kb.model import Heading

CONVERT_TIMEOUT_S = 180  # LibreOffice's first start in a fresh profile takes a few seconds; a hang is a bad file
INSTALL = ("apt-get install libreoffice-writer-nogui (or antiword); on Hugging Face Spaces list it in packages.txt "
           "— or save the file as .docx in Word")
_SOFFICE = ("soffice", "libreoffice")


def converter() -> str | None:
    """The converter that would read a .doc here: 'soffice', 'antiword' or None."""
    if any(shutil.which(c) for c in _SOFFICE):
        return "soffice"
    return "antiword" if shutil.which("antiword") else None


def read_doc(name: str, raw: bytes, max_bytes: int) -> tuple[str, tuple[Heading, ...], tuple[str, ...]]:
    """The .doc's text, headings and keywords as its .docx conversion holds them (antiword: text only)."""
    with tempfile.TemporaryDirectory(prefix="annex-doc-") as work:
        source = Path(work) / "document.doc"
        source.write_bytes(raw)
        soffice = next((path for c in _SOFFICE if (path := shutil.which(c))), None)
        if soffice:
            # A profile of its own: a running LibreOffice (or another conversion) would otherwise take the request.
            command = [soffice, f"-env:UserInstallation=file://{work}/profile", "--headless", "--norestore",
                       "--convert-to", "docx:MS Word 2007 XML", "--outdir", work, str(source)]
            _run(name, command)
            converted = Path(work) / "document.docx"
            if not converted.exists():
                raise ParseError(name, "LibreOffice could not convert it (damaged, password-protected or not a Word "
                                       "document); open it in Word and save it as .docx.")
            return read_docx(name, converted.read_bytes(), max_bytes)
        antiword = shutil.which("antiword")
        if antiword:
            text = _run(name, [antiword, "-m", "UTF-8.txt", "-w", "0", str(source)])
            return text, (), ()
    raise ParseError(name, f"is a legacy Word .doc, and no converter is installed: {INSTALL}.")


def _run(name: str, command: list[str]) -> str:
    # A session of its own: soffice hands the work to soffice.bin, which a timeout must end too.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=CONVERT_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise ParseError(name, f"the .doc converter did not finish within {CONVERT_TIMEOUT_S} s; open it in Word and "
                               "save it as .docx.") from exc
    if process.returncode != 0:
        reason = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {process.returncode}"]
        raise ParseError(name, f"could not be converted ({Path(command[0]).name}: {reason[0]}); open it in Word and "
                               "save it as .docx.")
    return stdout.decode("utf-8", "replace")
