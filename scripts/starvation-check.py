#!/usr/bin/env python3
"""starvation-check.py BIN_DIR [MODULES]: the load test of issue 46, item 1.

Starts a daemon (BIN_DIR/shipgate-daemon, a release build) on a private socket and
store, sets two pathological comparisons running (each of a repository of MODULES
modules (default 8) of 16,000 agents handing off one to the next), then times a cold
comparison of an unrelated small repository while they run; kills their clients and
times another cold one (a third repository) right after. Prints the wall times, and
how long the daemon kept working once the clients had gone."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

AGENT = ('from agents import Agent, function_tool\n\n\n@function_tool\ndef lookup(q: str) -> str:\n'
         '    return q\n\n\nsupport = Agent(name="support", tools=[lookup])\n')


def git(repo, *args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True)


def new_repo(root, name):
    repo = os.path.join(root, name)
    os.makedirs(os.path.join(repo, "app"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "load@example.com")
    git(repo, "config", "user.name", "load")
    return repo


def commit(repo, files, message):
    for path, text in files.items():
        with open(os.path.join(repo, path), "w") as handle:
            handle.write(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def chain(edit):
    lines = ["from agents import Agent, function_tool", "", "", "@function_tool",
             "def lookup(q: str) -> str:", "    return q", "", "", 'h0 = Agent(name="h0", tools=[lookup])']
    lines += [f'h{i} = Agent(name="h{i}", handoffs=[h{i - 1}], tools=[lookup])' for i in range(1, 16000)]
    return "\n".join(lines + [edit]) + "\n"


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    bins = sys.argv[1]
    modules = int(sys.argv[2]) if len(sys.argv) == 3 else 8
    root = tempfile.mkdtemp(prefix="shipgate-starvation-")
    try:
        slow = []
        for name in ("slow-a", "slow-b"):
            repo = new_repo(root, name)
            commit(repo, {f"app/m{m}.py": chain("") for m in range(modules)}, "agents")
            commit(repo, {f"app/m{m}.py": chain("# edited") for m in range(modules)}, "edit")
            slow.append(repo)
        small = []
        for name in ("small-a", "small-b"):
            repo = new_repo(root, name)
            commit(repo, {"app/agent.py": AGENT}, "agent")
            commit(repo, {"app/agent.py": AGENT.replace("return q", "return q.strip()")}, "edit")
            small.append(repo)
        env = dict(os.environ, SHIPGATE_SOCKET=os.path.join(root, "sock"),
                   SHIPGATE_DATA_DIR=os.path.join(root, "data"))
        daemon = subprocess.Popen([os.path.join(bins, "shipgate-daemon"), "serve", "--socket",
                                   env["SHIPGATE_SOCKET"], "--data-dir", env["SHIPGATE_DATA_DIR"]],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not os.path.exists(env["SHIPGATE_SOCKET"]):
            time.sleep(0.05)
        client = os.path.join(bins, "shipgate-client")

        def diff(repo, **kwargs):
            return [client, "diff", "--application", "--workspace", repo, "--base", "HEAD~1",
                    "--head", "HEAD", "--scope", "app"]

        def timed(repo):
            started = time.time()
            done = subprocess.run(diff(repo), env=env, capture_output=True, text=True)
            return time.time() - started, done.returncode

        clients = [subprocess.Popen(diff(repo), env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for repo in slow]
        while cpu_seconds(daemon.pid) < 2.0:
            time.sleep(0.05)
        wall, code = timed(small[0])
        running = sum(c.poll() is None for c in clients)
        print(f"cheap cold diff while two pathological ones run: {wall:.2f} s (exit {code}); "
              f"pathological still running: {running}")
        for c in clients:
            c.kill()
            c.wait()
        gone = time.time()
        wall, code = timed(small[1])
        print(f"cheap cold diff right after their clients went away: {wall:.2f} s (exit {code})")
        while True:
            before = cpu_seconds(daemon.pid)
            time.sleep(0.25)
            if cpu_seconds(daemon.pid) - before < 0.05:
                break
        print(f"the daemon was idle {time.time() - gone:.2f} s after the clients went away")
        daemon.terminate()
        daemon.wait()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
