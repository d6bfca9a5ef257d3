"""Importing one module: its cached result, or a sandboxed child process run to its end."""

import json
import os
import shutil
import signal
import subprocess
import time

from .sandbox import NOBODY


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass


def failed(path, status, error):
    """The result of an import whose child wrote none."""
    return {"module": path, "status": status, "error": error, "agents": [], "loaded_files": [path]}


class ModuleRunner:
    """Runs the child for one module at a time (from several threads), each in its own TMPDIR."""

    def __init__(self, run_root, src, py, child_script, confine, as_nobody, env, timeout, cache):
        self.run_root = run_root
        self.src = src
        self.py = py
        self.child_script = child_script
        self.confine = confine  # the unshare and setpriv prefix
        self.as_nobody = as_nobody
        self.timeout = timeout
        self.cache = cache
        self.out_dir = os.path.join(run_root, "out")
        os.mkdir(self.out_dir)
        self.home = os.path.join(run_root, "home")
        os.mkdir(self.home)
        if as_nobody:
            for p in (self.out_dir, self.home):
                os.chown(p, NOBODY, NOBODY)
        self.env = env  # what the imports see besides the fixed variables

    def run(self, i, path):
        hit = self.cache.get(path)
        if hit is not None:
            hit = dict(hit)
            hit["cached"] = True
            return hit
        out = os.path.join(self.out_dir, "%d.json" % i)
        tmpdir = os.path.join(self.run_root, "t%d" % i)
        os.mkdir(tmpdir)
        if self.as_nobody:
            os.chown(tmpdir, NOBODY, NOBODY)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": self.home,
            "TMPDIR": tmpdir,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "NO_PROXY": "*",
        }
        env.update(self.env)
        cmd = self.confine + [self.py, "-I", "-S", self.child_script, "--child", "--root", self.src,
                              "--module-path", path, "--out", out, "--timeout", str(self.timeout)]
        t0 = time.time()
        proc = subprocess.Popen(cmd, env=env, cwd=tmpdir, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            _, err = proc.communicate(timeout=self.timeout + 15)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            proc.communicate()
            return failed(path, "timeout", "killed after %.0fs" % (time.time() - t0))
        kill_group(proc)  # whatever the module started is ended with it
        shutil.rmtree(tmpdir, ignore_errors=True)
        try:
            with open(out) as fh:
                result = json.load(fh)
        except (OSError, ValueError):
            tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
            return failed(path, "error", "child ended (rc %s) without a result: %s" % (proc.returncode, " | ".join(tail)))
        self.cache.put(path, result)
        return result
