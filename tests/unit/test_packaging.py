"""One source of truth for dependencies: requirements.txt (read by Hugging Face Spaces) agrees with pyproject."""
from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_requirements_txt_matches_pyproject_dependencies():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    listed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert listed == declared


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line.strip() for line in ci.splitlines() if "pytest" in line)
    assert command in readme
