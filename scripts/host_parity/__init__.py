"""Host-grant parity: random coding-agent host configuration changes, answered
by the reference (`agents-shipgate diff`) and by ours (`shipgate-daemon diff`).

Truth model
-----------
The reference, `agents-shipgate diff --workspace W --base main --json`
(release 1.2.0, used only as a black box), is the oracle for what a change
does to the configuration of coding-agent hosts: Claude Code
(`.claude/settings.json`, `.claude/settings.local.json`, `.mcp.json` at any
depth), Cursor (`.cursor/mcp.json`), VS Code (`.vscode/mcp.json`), Codex
(`.codex/config.toml`) and GitHub workflows (`.github/workflows/*.yml`).
Ours must give the same answer, except where `host_parity_known.json` lists a
decided, intended difference. Each entry there is a normalisation applied
before comparing (today: the reference's `added` + `removed` pair for a
permission rule replaced by a wider or narrower one, or for a one-value
setting changed in place, becomes the one `widened` / `narrowed` / `changed`
row ours prints). A direction is always the agent's authority, not a rule's
reach: an allow rule replaced by one matching more is `widened`, a deny or ask
rule replaced by one matching more is `narrowed` (the agent may do less), and
the other way round. Which rule matches more is `covers` (`rules.py`), a port
of ours (`daemon/src/hosts/rules.rs`). A difference no entry explains is a
mismatch.

Per case we compare
  * `comparison_status`;
  * the rows, as a multiset of (direction, severity, subject, before, after,
    disposition, expands, why): a row a known difference rewrote is compared
    strictly on direction, subject, before, after and disposition, and loosely
    on severity, why and expands (a loose difference is reported, never fails);
  * the coverage items, as a multiset of (source, status, side);
  * the top-level, coverage and row keys of the JSON document;
  * secrets: every environment and header value the generator plants is a
    fresh secret-looking token; neither tool's output (JSON or text) may ever
    contain one. A leak is a failure of the tool that printed it.
A tool that crashes, times out (60 s a run) or prints something that is not
JSON fails that case; the script itself carries on.

Each case is a git repository in a temporary directory: base files committed
on `main`, a branch `feature` checked out, head edits applied to the working
tree and then committed, left uncommitted, or partly both (the tools compare
the working tree). Case N of seed S is always the same case (`--case N`).

Python 3 standard library only. Run `--help` for the flags.
"""
