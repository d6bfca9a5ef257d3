"""The commit's tree: its blobs, its extraction into the run directory, the modules to import."""

import os
import re
import subprocess
import tarfile
import threading


def ls_tree(git, commit, *flags):
    """(mode, type, sha, path) of every entry `git ls-tree -r -z` lists (bytes; path decoded);
    None when git fails."""
    ls = subprocess.run(git + ["ls-tree", "-r", "-z", *flags, commit], capture_output=True)
    if ls.returncode != 0:
        return None
    out = []
    for item in ls.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, typ, sha = meta.split()
        out.append((mode, typ, sha.decode(), path.decode("utf-8", "surrogateescape")))
    return out


def blob_ids(git, commit):
    """The blob id of every file at the commit (the cache's keys)."""
    return {path: sha for _, typ, sha, path in ls_tree(git, commit) or [] if typ == b"blob"}


def extract(git, commit, dest, blobs, scratch):
    """The commit's tree under `dest`: `git archive` first; when the
    repository lacks some objects (a copy that left large files out), blob
    by blob with `git cat-file --batch`, skipping what is missing. Links are
    left out then. Returns {"missing": [...], "why": ...} or None."""
    tar_path = os.path.join(scratch, "tree.tar")
    with open(tar_path, "wb") as fh:
        p = subprocess.run(git + ["archive", "--format=tar", commit], stdout=fh, stderr=subprocess.PIPE)
    if p.returncode == 0:
        try:
            with tarfile.open(tar_path, mode="r:") as tar:
                for member in tar:
                    try:
                        tar.extract(member, dest, filter="data")
                    except Exception:
                        pass  # links out of the tree, odd names: skipped
            return {"missing": [], "why": None}
        except (tarfile.TarError, OSError):
            pass
        finally:
            os.remove(tar_path)
    why = p.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
    missing = []
    entries = ls_tree(git, commit, "--full-tree")
    if entries is None:
        return None
    wanted = []
    for mode, typ, sha, rel in entries:
        if typ != b"blob" or mode == b"120000":
            continue
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts or "" in parts:
            continue
        wanted.append((rel, sha))
    proc = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        try:
            for _, sha in wanted:
                proc.stdin.write(sha.encode() + b"\n")
        finally:
            proc.stdin.close()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = proc.stdout
    for rel, sha in wanted:
        header = out.readline().split()
        if len(header) < 2 or header[1] == b"missing":
            missing.append(rel)
            continue
        size = int(header[2])
        data = out.read(size)
        out.read(1)
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
    t.join()
    proc.wait()
    return {"missing": missing, "why": why[0] if why else "git archive failed"}


def make_readable(src):
    """Directories 0755 and files 0644: the child reads the tree as `nobody`."""
    for dirpath, dirnames, filenames in os.walk(src):
        for names, mode in ((dirnames, 0o755), (filenames, 0o644)):
            for n in names:
                try:
                    os.chmod(os.path.join(dirpath, n), mode)
                except OSError:
                    pass
    os.chmod(src, 0o755)


MENTION = re.compile(rb"agents|google\.adk")
TESTLIKE = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.py$|(^|/)conftest\.py$")


def framework_dirs(src):
    """Copies of the frameworks' own sources in the tree: never imported as the repository's."""
    out = []
    for cand in ("src/agents", "agents", "src/google/adk", "google/adk"):
        p = os.path.join(src, cand)
        if os.path.isdir(p) and (os.path.exists(os.path.join(p, "agent.py")) or
                                 os.path.isdir(os.path.join(p, "agents"))):
            if cand.endswith("agents") and not os.path.exists(os.path.join(p, "run.py")):
                continue
            out.append(cand + "/")
    return out


def modules_to_import(src, blobs, only, include_tests):
    """The Python files that mention `agents` or `google.adk` (not tests unless asked, not a
    framework's own source), in path order."""
    skipped = framework_dirs(src)
    modules = []
    for path in sorted(blobs):
        if not path.endswith(".py"):
            continue
        if only is not None and path not in only:
            continue
        if not include_tests and TESTLIKE.search(path):
            continue
        if any(path.startswith(fd) for fd in skipped):
            continue
        full = os.path.join(src, path)
        if not os.path.isfile(full) or os.path.islink(full):
            continue
        try:
            with open(full, "rb") as fh:
                data = fh.read(2_000_000)
        except OSError:
            continue
        if MENTION.search(data):
            modules.append(path)
    return modules
