"""Running the engine: commit both renderings to a scratch repository and diff them with the daemon."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

from .naming import SCOPE


GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="kt", GIT_AUTHOR_EMAIL="kt@example.com",
               GIT_COMMITTER_NAME="kt", GIT_COMMITTER_EMAIL="kt@example.com",
               GIT_CONFIG_NOSYSTEM="1", HOME=tempfile.gettempdir())


def git(repo: str, *args: str):
    subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True, env=GIT_ENV)


def write_files(root: str, files: dict[str, str]):
    """Write `files` (path below `root` -> text), making directories as needed."""
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            handle.write(text)


def commit(repo: str, files: dict[str, str], message: str):
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)


def make_repo(base: dict[str, str], head: dict[str, str]) -> str:
    """A scratch repository: the base files committed on `main`, the head files on `head`."""
    repo = tempfile.mkdtemp(prefix="known-truth-")
    git(repo, "init", "-q", "-b", "main")
    commit(repo, base, "base")
    git(repo, "checkout", "-q", "-b", "head")
    for path in base:
        if path not in head:
            os.remove(os.path.join(repo, path))
    commit(repo, head, "head")
    return repo


class EngineError(Exception):
    pass


def git_renames(repo: str) -> dict[str, str]:
    """The files git pairs as renamed between main and head (`git diff -M`, its default 50% similarity),
    scope-relative: base path -> head path."""
    done = subprocess.run(["git", "diff", "-M", "--name-status", "main", "head"], cwd=repo, check=True,
                          capture_output=True, text=True, env=GIT_ENV)
    prefix = SCOPE + "/"
    renames = {}
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and fields[0].startswith("R") and all(f.startswith(prefix) for f in fields[1:]):
            renames[fields[1][len(prefix):]] = fields[2][len(prefix):]
    return renames


def run_engine(daemon: str, data_dir: str, base: dict[str, str], head: dict[str, str]) -> tuple[dict, dict[str, str]]:
    """The daemon's JSON document for `diff --application` of the two versions, and git's renames
    between them (`git_renames`)."""
    repo = make_repo(base, head)
    try:
        command = [daemon, "diff", "--application", "--workspace", repo, "--base", "main", "--head", "head",
                   "--scope", SCOPE, "--json", "--data-dir", data_dir]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise EngineError(f"exit {done.returncode}: {done.stderr.strip()}")
        return json.loads(done.stdout), git_renames(repo)
    finally:
        shutil.rmtree(repo, ignore_errors=True)
