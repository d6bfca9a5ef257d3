#!/usr/bin/env python3
"""handoff-chain.py N DAEMON: the cold diff of one module of N SDK agents, each handing off to the one
before it (`h{i} = Agent(name="h{i}", handoffs=[h{i-1}], tools=[lookup])`), its head a one-line edit;
prints the wall time and the daemon's phase timings (issue 46, item 2). The bench
`cargo bench --bench reach -- handoff_chain` times the graph alone."""
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    agents, daemon = int(sys.argv[1]), sys.argv[2]
    repo, store = tempfile.mkdtemp(), tempfile.mkdtemp()
    try:
        def git(*args):
            subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True)
        git("init", "-q", "-b", "main")
        git("config", "user.email", "chain@example.com")
        git("config", "user.name", "chain")
        os.makedirs(f"{repo}/app")
        open(f"{repo}/app/__init__.py", "w").close()

        def write(extra):
            lines = ["from agents import Agent, function_tool", "", "", "@function_tool",
                     "def lookup(q: str) -> str:", "    return q", "", "", 'h0 = Agent(name="h0", tools=[lookup])']
            lines += [f'h{i} = Agent(name="h{i}", handoffs=[h{i - 1}], tools=[lookup])' for i in range(1, agents)]
            with open(f"{repo}/app/agent.py", "w") as handle:
                handle.write("\n".join(lines + [extra]) + "\n")
        write("")
        git("add", "-A")
        git("commit", "-qm", "base")
        write("# edited")
        git("commit", "-qam", "head")
        started = time.time()
        done = subprocess.run([daemon, "diff", "--application", "--workspace", repo, "--base", "HEAD~1",
                               "--head", "HEAD", "--scope", "app", "--json", "--data-dir", store, "--timings"],
                              capture_output=True, text=True)
        print(f"{agents} agents: {time.time() - started:.2f} s, exit {done.returncode}; {done.stderr.strip()}")
    finally:
        shutil.rmtree(repo, ignore_errors=True)
        shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main()
