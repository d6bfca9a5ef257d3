"""What the child does to itself before the import: resource limits, no network, placeholder
environment variables, and a record of the repository files the import reads."""

import builtins
import io
import os
import socket

ORIG_OPEN = builtins.open
opened = set()  # repository files read during the import (for the parent's cache)


def limit_resources(timeout):
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        gib = 2 * 1024 ** 3
        resource.setrlimit(resource.RLIMIT_AS, (gib, gib))
        cpu = int(timeout) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    except Exception:
        pass


# ---- no network (in addition to the network namespace) ------------
def _no_network(*a, **k):
    raise OSError("network disabled by the shipgate recorder")


class _NoSocket(socket.socket):
    def __init__(self, family=-1, *a, **k):
        if family == getattr(socket, "AF_UNIX", object()):
            return super().__init__(family, *a, **k)
        raise OSError("network disabled by the shipgate recorder")


def block_network():
    socket.socket = _NoSocket
    socket.create_connection = _no_network
    socket.getaddrinfo = _no_network
    socket.gethostbyname = _no_network
    # socket.socketpair stays: an asyncio event loop needs it, and it is local


# ---- environment: a missing os.environ[...] is a placeholder ----------
_orig_getitem = type(os.environ).__getitem__
_orig_setitem = type(os.environ).__setitem__
_missing = object()


def _env_getitem(self, key):
    try:
        return _orig_getitem(self, key)
    except KeyError:
        return "0"  # a placeholder that int(), float() and str use alike


def _env_has(self, key):
    try:
        _orig_getitem(self, key)
        return True
    except KeyError:
        return False


def _env_get(self, key, default=None):
    return _orig_getitem(self, key) if _env_has(self, key) else default


def _env_setdefault(self, key, default=None):
    if not _env_has(self, key):
        self[key] = default
    return _orig_getitem(self, key)


def _env_pop(self, key, default=_missing):
    if _env_has(self, key):
        value = _orig_getitem(self, key)
        del self[key]
        return value
    if default is _missing:
        raise KeyError(key)
    return default


def _env_setitem(self, key, value):
    # a stub's value (a project id from a stubbed google.auth) is a string
    _orig_setitem(self, key, value if isinstance(value, str) else str(value))


def placeholder_environ():
    # only `os.environ[NAME]` of a missing NAME changes: get/getenv/in/
    # setdefault/pop keep their meaning (the variable is unset)
    os.environ.__class__ = type("_RecEnviron", (type(os.environ),), {
        "__getitem__": _env_getitem, "__setitem__": _env_setitem, "__contains__": _env_has, "get": _env_get,
        "setdefault": _env_setdefault, "pop": _env_pop})


# ---- which repo files were read (for the caller's cache) ------------
def record_opens(root):
    def _rec_open(file, *a, **k):
        try:
            p = os.path.realpath(os.fspath(file)) if not isinstance(file, int) else None
            if p and p.startswith(root + os.sep):
                opened.add(os.path.relpath(p, root))
        except Exception:
            pass
        return ORIG_OPEN(file, *a, **k)

    builtins.open = _rec_open
    io.open = _rec_open


def install(root, timeout):
    limit_resources(timeout)
    block_network()
    placeholder_environ()
    record_opens(root)
