"""Per-module results cached by the blobs each import loaded, valid for this very recorder."""

import hashlib
import json
import os

from .sources import recorder_sources


def recorder_version():
    """A digest of the recorder's own sources: cached results are valid only for this very recorder."""
    digest = hashlib.sha256()
    for rel, full in recorder_sources():
        with open(full, "rb") as fh:
            digest.update(rel.encode() + b"\0" + fh.read() + b"\0")
    return digest.hexdigest()[:16]


class Cache:
    """One JSON file a module path: up to 64 entries {version, deps (path -> blob), result}."""

    def __init__(self, directory, blobs):
        self.directory = directory
        self.blobs = blobs
        self.version = recorder_version()
        if directory:
            os.makedirs(directory, exist_ok=True)

    def file(self, path):
        return os.path.join(self.directory, hashlib.sha256(path.encode()).hexdigest()[:32] + ".json")

    def entries(self, path):
        try:
            with open(self.file(path)) as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def get(self, path):
        """The cached result of importing `path`, when every file it loaded is unchanged."""
        if not self.directory:
            return None
        for entry in self.entries(path) or []:
            if entry.get("version") != self.version:
                continue
            if all(self.blobs.get(p) == sha for p, sha in entry["deps"].items()):
                return entry["result"]
        return None

    def put(self, path, result):
        if not self.directory or result.get("status") == "timeout":
            return
        deps = {p: self.blobs.get(p) for p in result.get("loaded_files", [])}
        entries = [{"version": self.version, "deps": deps, "result": result}] + [
            e for e in self.entries(path) or [] if e.get("version") == self.version][:63]
        tmp = self.file(path) + ".tmp%d" % os.getpid()
        with open(tmp, "w") as fh:
            json.dump(entries, fh)
        os.replace(tmp, self.file(path))
