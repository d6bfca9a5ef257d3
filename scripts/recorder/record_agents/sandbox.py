"""The sandbox the child runs in: no network namespace interfaces but loopback, the user `nobody`,
a throwaway venv of an interpreter that runs there, and a world-readable copy of the recorder."""

import glob
import os
import shutil
import subprocess
import sys

from .sources import recorder_sources

NOBODY = 65534


def confinement():
    """(prefix, drop): `unshare` for a network namespace and (as root) `setpriv` to run as `nobody`,
    each only where it works."""
    prefix = []
    if shutil.which("unshare"):
        for cand in (["unshare", "--net"], ["unshare", "-rn"]):
            if subprocess.run(cand + ["true"], capture_output=True).returncode == 0:
                prefix = cand
                break
    drop = []
    if os.geteuid() == 0 and shutil.which("setpriv"):
        cand = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups", "--no-new-privs"]
        if subprocess.run(prefix + cand + ["true"], capture_output=True).returncode == 0:
            drop = cand
    return prefix, drop


def lib_env(base):
    """LD_LIBRARY_PATH for an interpreter with its own lib/ beside its bin/."""
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(base))), "lib")
    return {"LD_LIBRARY_PATH": lib} if os.path.isdir(lib) else {}


def works(base, confine):
    """Whether interpreter `base` runs in the sandbox as itself (one under a directory `nobody`
    cannot read does not)."""
    if not base or not os.path.exists(base):
        return False
    code = "import sys, venv; print(sys.version)"
    own = subprocess.run([base, "-I", "-S", "-c", code], capture_output=True, text=True)
    if own.returncode != 0:
        return False
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}
    env.update(lib_env(base))
    boxed = subprocess.run(confine + [base, "-I", "-S", "-c", code], capture_output=True,
                           text=True, env=env, cwd="/")
    return boxed.returncode == 0 and boxed.stdout == own.stdout


def choose_python(requested, confine, log):
    """The interpreter: `requested` when it works, else the newest that runs in the sandbox."""
    base_python = None
    if requested != "auto":
        base_python = requested if works(requested, confine) else None
        if base_python is None:
            log("warning: %s does not run in the sandbox; choosing one" % requested)
    if base_python is None:
        cands = []
        for minor in ("3.14", "3.13", "3.12", "3.11", "3.10"):
            cands.append(shutil.which("python" + minor))
            for d in ("/usr/local/bin", "/usr/bin", os.path.expanduser("~/.pyenv/versions/%s*/bin" % minor)):
                cands += sorted(glob.glob(os.path.join(d, "python" + minor)))
        cands += [sys.executable, "/usr/bin/python3"]
        for cand in cands:
            if works(cand, confine):
                base_python = cand
                break
    return base_python


def make_venv(base_python, run_root):
    """A venv without pip: the child's interpreter (nothing is installed into it)."""
    venv = os.path.join(run_root, "venv")
    subprocess.run([base_python, "-m", "venv", "--without-pip", venv], check=True,
                   capture_output=True)
    return os.path.join(venv, "bin", "python")


def install_child(run_root):
    """A world-readable copy of the recorder for the child; the script it runs."""
    dest = os.path.join(run_root, "recorder")
    for rel, full in recorder_sources():
        target = os.path.join(dest, rel)
        for d in _new_dirs(dest, os.path.dirname(target)):
            os.mkdir(d)
            os.chmod(d, 0o755)
        shutil.copyfile(full, target)
        os.chmod(target, 0o644)
    return os.path.join(dest, "record_agents.py")


def _new_dirs(top, directory):
    """The directories from `top` down to `directory` that do not exist yet, outermost first."""
    out = []
    while not os.path.isdir(directory):
        out.insert(0, directory)
        if directory == top:
            break
        directory = os.path.dirname(directory)
    return out
