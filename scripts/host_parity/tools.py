"""Running a tool: each run in its own process group, ended as a whole on timeout; its exit,
output and JSON document, or why it failed."""

import json
import os
import subprocess
import time

RUN_TIMEOUT = 60


class Run:
    """One run of one tool: its exit, its output, its JSON, or why it failed."""

    def __init__(self, argv, rc=None, stdout="", stderr="", failure=None, seconds=0.0):
        self.argv, self.rc, self.stdout, self.stderr = argv, rc, stdout, stderr
        self.failure, self.seconds, self.doc = failure, seconds, None


def run_tool(argv, want_json):
    """Run one tool in its own process group; on timeout the whole group is ended."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                errors="replace", stdin=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        return Run(argv, failure=f"could not start: {exc}")
    try:
        stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
        stdout, stderr = proc.communicate()
        return Run(argv, stdout=stdout, stderr=stderr, failure=f"timeout after {RUN_TIMEOUT}s",
                   seconds=RUN_TIMEOUT)
    done = subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)
    run = Run(argv, done.returncode, done.stdout, done.stderr, seconds=time.monotonic() - start)
    if want_json:
        try:
            run.doc = json.loads(done.stdout)
            if not isinstance(run.doc, dict):
                raise ValueError("not an object")
        except ValueError:
            run.failure = (f"crash (exit {done.returncode})" if done.returncode else "stdout is not a JSON object")
    elif done.returncode not in (0,) and not done.stdout.strip():
        run.failure = f"crash (exit {done.returncode})"
    return run


class Answer:
    """A tool's JSON run and, for the leak check, its text run."""

    def __init__(self, tool, json_run, text_run):
        self.tool, self.json, self.text = tool, json_run, text_run

    def failures(self):
        """[(mode, run)] of the runs that failed."""
        return [(mode, run) for mode, run in (("json", self.json), ("text", self.text))
                if run is not None and run.failure]

    def leaks(self, secrets):
        runs = [r for r in (self.json, self.text) if r is not None]
        return sorted({s for s in secrets for r in runs if s in r.stdout or s in r.stderr})


def answer(tool, binary, repo, with_text):
    argv = [binary, "diff", "--workspace", repo, "--base", "main"]
    json_run = run_tool(argv + ["--json"], want_json=True)
    text_run = run_tool(argv, want_json=False) if with_text else None
    return Answer(tool, json_run, text_run)
