"""The import of the one module: the name and sys.path a run of it would have, a meta path
finder that gives the frameworks' recording stubs and a permissive stub for every other
third-party module, and the import itself under a timeout."""

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import os
import signal
import sys
import traceback

from .frameworks import _FrameworkModule
from .guards import ORIG_OPEN
from .sites import parse, rel
from .stubs import _StubModule, stubbed

stdlib = set(sys.stdlib_module_names) | set(sys.builtin_module_names)


def sdk_like(directory):
    return all(os.path.exists(os.path.join(directory, f)) for f in ("agent.py", "run.py", "__init__.py"))


class _Loader(importlib.abc.Loader):
    def __init__(self, kind):
        self.kind = kind

    def create_module(self, spec):
        if self.kind in ("sdk", "adk", "google"):
            m = _FrameworkModule(spec.name)
            m._sg_framework = self.kind
        else:
            m = _StubModule(spec.name)
            stubbed[spec.name] = True
        m.__path__ = []
        m.__all__ = []
        m.__file__ = None
        return m

    def exec_module(self, module):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, path_entries_for_agents):
        self.path_entries_for_agents = path_entries_for_agents
        self.repo_owns_agents = None  # decided at the first import of `agents`

    def find_spec(self, fullname, path, target=None):
        top = fullname.split(".")[0]
        kind = None
        if top == "agents":
            if self.repo_owns_agents is None:
                # the module's own directory is on the path only for a
                # script's sibling imports; a package `agents` there
                # (an example's own `agents/`) does not shadow the SDK
                # for a module run with `-m`
                spec = importlib.machinery.PathFinder.find_spec("agents", self.path_entries_for_agents)
                # a regular package or module `agents` of the
                # repository shadows the SDK, unless it is the SDK's own
                # source; a namespace directory does not (an installed
                # SDK, a regular package, wins over it)
                own = None
                if spec is not None and spec.origin and spec.loader is not None:
                    locs = list(spec.submodule_search_locations or [])
                    if not any(sdk_like(loc) for loc in locs):
                        own = spec
                self.repo_owns_agents = own is not None
            if self.repo_owns_agents:
                return None
            kind = "sdk"
        elif fullname == "google.adk" or fullname.startswith("google.adk."):
            kind = "adk"
        elif fullname == "google":
            kind = "google"
        if kind is not None:
            return importlib.util.spec_from_loader(fullname, _Loader(kind), is_package=True)
        if top in stdlib:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None:
            return spec
        return importlib.util.spec_from_loader(fullname, _Loader("stub"), is_package=True)


def module_name_and_path(root, relpath):
    """The module's dotted name and the sys.path entries a run of it would have.

    The package chain (directories with __init__.py) gives the usual
    name; a directory above it may be the path entry instead (a namespace
    package imported from the repository root, `python -m app.main`):
    the entry whose directory holds most of the module's absolute imports
    wins, the deepest on a tie, and never one that names the module
    `agents...`/`google...` (the frameworks) when another entry does not.
    """
    abspath = os.path.join(root, relpath)
    is_init = os.path.basename(relpath) == "__init__.py"
    d = os.path.dirname(abspath)
    parts = [] if is_init else [os.path.splitext(os.path.basename(relpath))[0]]
    if is_init:
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    while d != root and d.startswith(root) and os.path.exists(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    chain_root = d
    max_level = 0
    abs_tops = set()
    tree = parse(relpath)
    for node in ast.walk(tree) if tree is not None else []:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                max_level = max(max_level, node.level)
            elif node.module:
                abs_tops.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                abs_tops.add(alias.name.split(".")[0])
    abs_tops -= stdlib | {"agents", "google", "__future__"}
    candidates = []
    c = chain_root
    while c.startswith(root):
        candidates.append(c)
        if c == root:
            break
        c = os.path.dirname(c)
    # (a module under src/ has src/ among those ancestors already)
    best = None
    for rank, cand in enumerate(candidates):
        prefix = [] if cand == chain_root else os.path.relpath(chain_root, cand).split(os.sep)
        names = prefix + parts
        if not names or any(not n or "." in n for n in names):
            continue
        depth = len(names) if is_init else len(names) - 1
        if max_level > depth:
            continue
        score = sum(1 for t in abs_tops
                    if os.path.isdir(os.path.join(cand, t)) or os.path.isfile(os.path.join(cand, t + ".py")))
        clash = names[0] in ("agents", "google") or names[0] in stdlib
        key = (not clash, score, -rank)
        if best is None or key > best[0]:
            best = (key, cand, names)
    if best is None:
        path_root, names = chain_root, parts or [os.path.basename(chain_root)]
    else:
        _, path_root, names = best
    modname = ".".join(names)
    entries = [path_root, root]
    if os.path.isdir(os.path.join(root, "src")):
        entries.append(os.path.join(root, "src"))
    seen_entries = []
    for e in entries:
        if e not in seen_entries:
            seen_entries.append(e)
    return abspath, modname, seen_entries


def prepare(root, relpath):
    """Put the module's path entries first and the finder before every other; the module's name."""
    abspath, modname, seen_entries = module_name_and_path(root, relpath)
    sys.path[:0] = seen_entries
    sys.meta_path.insert(0, _Finder(list(seen_entries)))
    sys.argv = [abspath]
    sys.stdin = ORIG_OPEN(os.devnull)
    os.chdir(os.environ.get("TMPDIR", "/tmp"))
    return abspath, modname



class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_with_top_level_await(modname, abspath):
    """A notebook-style snippet (`await runner.run(...)` at module
    level) does not import; it is run as the REPL would run it."""
    import asyncio
    spec = importlib.util.find_spec(modname)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    with ORIG_OPEN(abspath, "rb") as fh:
        code = compile(fh.read(), abspath, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                       dont_inherit=True)
    result = eval(code, mod.__dict__)
    if inspect.iscoroutine(result):
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(result)
        finally:
            loop.close()


def import_module(modname, abspath, timeout):
    """Import the module within `timeout` seconds: (status, error, where, note); then a timer
    of 10 s bounds what follows (the collection)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    status, error, where, note = "ok", None, None, None
    try:
        try:
            importlib.import_module(modname)
        except SyntaxError as e:
            if not ("await" in str(e) and "outside" in str(e)
                    and os.path.realpath(e.filename or "") == os.path.realpath(abspath)):
                raise
            note = "run with top-level await"
            run_with_top_level_await(modname, abspath)
    except _Timeout:
        status = "timeout"
    except BaseException as e:  # noqa: BLE001 - anything the module raised
        status = "error"
        error = "%s: %s" % (type(e).__name__, str(e)[:300])
        tb = traceback.extract_tb(e.__traceback__)
        for fr in reversed(tb):
            r = rel(fr.filename)
            if r is not None:
                where = "%s:%s" % (r, fr.lineno)
                break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, 10)  # bound the collection too
    return status, error, where, note
