"""Fixture repositories: a case as a git repository, base on `main`, head on `feature`
(committed, left in the working tree, or partly both)."""

import os
import subprocess

from .tools import RUN_TIMEOUT


def git(repo, *args):
    subprocess.run(("git", *args), cwd=repo, check=True, capture_output=True, timeout=RUN_TIMEOUT)


def write_files(repo, files):
    for path, text in files.items():
        full = os.path.join(repo, path)
        if text is None:
            if os.path.exists(full):
                os.remove(full)
            continue
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)


def build_repo(case, repo):
    """main holds the base; feature holds the head, committed or in the working tree."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "parity@example.com")
    git(repo, "config", "user.name", "host parity")
    git(repo, "config", "commit.gpgsign", "false")
    write_files(repo, case.base_files())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")
    head, base = case.head_files(), case.base_files()
    committed = {p: t for p, t in head.items() if p in case.committed_paths}
    if committed:
        write_files(repo, committed)
        visible = sorted(p for p, t in committed.items() if t is not None or p in base)
        if visible:
            git(repo, "add", "-A", "--", *visible)
        git(repo, "commit", "-q", "--allow-empty", "-m", "head")
    write_files(repo, {p: t for p, t in head.items() if p not in case.committed_paths})
