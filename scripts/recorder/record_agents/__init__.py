"""Import-time recorder of OpenAI Agents SDK / Google ADK agents (a test tool).

It is never imported by shipgate. It RUNS the code of the repository it is
given, so it only ever does so in throwaway child processes:

  * the commit's tree is extracted (`git archive`) into a temporary directory,
    which is deleted afterwards;
  * a throwaway virtual environment (`python3 -m venv --without-pip`) is made
    once per run; nothing is installed into it, and the child runs it with
    `-I -S` (no site-packages, no PYTHON* variables, no user site);
  * each module that mentions `agents` or `google.adk` is imported in its own
    child process, with a timeout, under `unshare --net` (no network
    namespace interfaces but loopback) when available, as user `nobody`
    (`setpriv`) when run as root, with a minimal environment (no API keys),
    HOME and TMPDIR in the temporary directory, resource limits, and
    `socket.socket` / `socket.create_connection` replaced by functions that
    raise;
  * the frameworks are replaced by recording stubs (`agents`, `google.adk`),
    and every other third-party import by permissive stub modules.

Each agent object constructed during the import is recorded with its
framework, name, construction site, and (read when the import ends, so later
mutations such as `agent.tools.append(x)` count) its tools, handoffs,
sub-agents and MCP servers.

Usage:
    record_agents.py --repo PATH --commit REV [--out FILE.jsonl]
                     [--timeout 20] [--jobs 2] [--cache DIR] [--include-tests]
                     [--only PATH ...]

Output: JSON lines; `{"type": "agent", ...}` per distinct agent seen and
`{"type": "module", ...}` per module imported (status ok / timeout / error),
and a final `{"type": "run", ...}` summary line.

The same file is also the child program (`--child`), run by the venv's
interpreter; that mode uses the standard library only.
"""
