#!/usr/bin/env python3
"""The steps of shipgate's composite GitHub Action (`action.yml` at the
repository root), one subcommand per step:

    install   put `shipgate-client` on the job's PATH (or find it there)
    fetch     fetch the base from `origin`, deep enough for a merge base
    diff      compare: markdown, JSON (for comparison_status), SARIF
    summary   write the markdown to the job summary
    comment   post or update the pull request's one shipgate comment
    verdict   end the job red when the policy tripped or the diff failed

Every input arrives in an environment variable that action.yml's `env:`
mappings set; nothing the workflow or the pull request controls is ever
spliced into shell text. Outputs go to `$GITHUB_OUTPUT`, annotations to
stdout as workflow commands. Standard library only: the action runs on
whatever `python3` the runner has.

The variables each step reads:

    install   SHIPGATE_WHEEL, SHIPGATE_VERSION, RUNNER_TEMP
    fetch     SHIPGATE_BASE, SHIPGATE_WORKING_DIRECTORY, GITHUB_EVENT_PATH
    diff      SHIPGATE_CLIENT, SHIPGATE_COMPARE_BASE (fetch's output),
              SHIPGATE_SCOPE, SHIPGATE_FAIL_ON, SHIPGATE_POLICY, SHIPGATE_SARIF,
              SHIPGATE_WORKING_DIRECTORY, RUNNER_TEMP (and SHIPGATE_DATA_DIR,
              SHIPGATE_SOCKET, ..., which the client reads itself)
    summary   SHIPGATE_MARKDOWN_FILE, SHIPGATE_EXIT_CODE, SHIPGATE_STDERR_FILE,
              GITHUB_STEP_SUMMARY
    comment   SHIPGATE_COMMENT, SHIPGATE_GITHUB_TOKEN, SHIPGATE_MARKDOWN_FILE,
              SHIPGATE_EXIT_CODE, SHIPGATE_STDERR_FILE, GITHUB_EVENT_NAME,
              GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_REPOSITORY
    verdict   SHIPGATE_EXIT_CODE, SHIPGATE_STDERR_FILE
"""

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

# The hidden first line of the one comment this action keeps per pull
# request: found again on the next run and edited, never duplicated.
# The PyPI distribution: not `shipgate`, which is an unrelated project there.
PACKAGE = "shipgate-agents"

MARKER = "<!-- shipgate-comment -->"

# GitHub refuses an issue comment longer than this many characters.
COMMENT_LIMIT = 65536

# The client's exit codes (its `diff --help`).
EXIT_OK = 0
EXIT_UNREACHABLE = 1
EXIT_BAD_INPUT = 2
EXIT_POLICY = 3

# The prefix of the client's stderr lines about the policy: a headline
# ("failed, exit 3: ..."), one line per finding ("added: support → refund
# at app/agent.py:16"), and a hint on accepting a reviewed change.
POLICY_PREFIX = "shipgate: policy:"

# The conditions a finding line starts with, after the prefix.
CONDITIONS = ("added", "changed", "not_established", "gate-loosened", "new-reach", "partial")


# ---------------------------------------------------------------- helpers


def env(name, default=""):
    """An environment variable, stripped; `default` when unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or default


def escape_data(text):
    """A workflow command's message, escaped as the runner unescapes it:
    no newline in it can start another command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotate(level, message):
    """An `::error::`/`::warning::`/`::notice::` annotation on stdout."""
    print(f"::{level}::{escape_data(message)}", flush=True)


def set_output(name, value):
    """One step output, in `$GITHUB_OUTPUT`'s multi-line form (a random
    delimiter, so no value can end it early); printed when run by hand."""
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        print(f"output {name}={value}")
        return
    delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
    with open(path, "a", encoding="utf-8") as out:
        out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def add_path(directory):
    """Prepends a directory to PATH for the job's later steps."""
    path = os.environ.get("GITHUB_PATH")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(directory + "\n")


def echo_verbatim(text):
    """Prints text that may hold `::` lines (the client's stderr quotes
    repository content) with workflow commands switched off around it."""
    if not text:
        return
    token = secrets.token_hex(16)
    print(f"::stop-commands::{token}")
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    print(f"::{token}::", flush=True)


def runner_temp():
    """The runner's per-job scratch directory (`RUNNER_TEMP`)."""
    return env("RUNNER_TEMP") or tempfile.gettempdir()


def working_directory():
    """The `working-directory` input as an absolute path (relative to the
    step's directory, the workspace)."""
    return os.path.abspath(env("SHIPGATE_WORKING_DIRECTORY", "."))


def read_text(path):
    """A file's text, or "" when the path is empty or missing."""
    if not path or not os.path.isfile(path):
        return ""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def exit_code():
    """The diff step's exit code; 1 when it never ran."""
    try:
        return int(env("SHIPGATE_EXIT_CODE", "1"))
    except ValueError:
        return EXIT_UNREACHABLE


def policy_lines(stderr):
    """The client's `shipgate: policy:` lines, stripped."""
    return [line.strip() for line in stderr.splitlines() if line.startswith(POLICY_PREFIX)]


def is_finding(line):
    """Whether a policy line names a finding (a tripped row), not the
    headline or the hint."""
    rest = line[len(POLICY_PREFIX) :].strip()
    return any(rest.startswith(f"{condition}:") for condition in CONDITIONS)


def fenced(text):
    """A markdown code block holding `text` verbatim: its fence is longer
    than any run of backticks inside."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def verdict_markdown(code, stderr):
    """What the summary and the comment say below the comparison about the
    policy or a failure; "" when the diff exited 0."""
    if code == EXIT_OK:
        return ""
    if code == EXIT_POLICY:
        lines = policy_lines(stderr) or [stderr.strip() or "the policy tripped"]
        return "**shipgate policy tripped** on:\n\n" + fenced("\n".join(lines))
    message = stderr.strip() or f"shipgate-client exited {code}"
    return f"**shipgate failed** (exit {code}):\n\n" + fenced(message)


def git(*args):
    """Runs git, capturing output: (exit code, stdout stripped); a failure's
    message goes to stderr."""
    done = subprocess.run(["git", *args], capture_output=True, text=True)
    if done.returncode != 0 and done.stderr.strip():
        print(f"git {' '.join(args)}: {done.stderr.strip()}", file=sys.stderr)
    return done.returncode, done.stdout.strip()


def load_event():
    """The webhook payload that triggered the workflow, or {}."""
    text = read_text(env("GITHUB_EVENT_PATH"))
    try:
        return json.loads(text) if text else {}
    except json.JSONDecodeError:
        return {}


# ---------------------------------------------------------------- install


def step_install():
    """Finds `shipgate-client` on PATH, or installs shipgate (the `wheel`
    input, else `shipgate-agents==version` from PyPI, else a wheel built
    from the action's own checkout by its `scripts/build-wheel.sh`: the
    shipgate of the ref the workflow names, built with the runner's Rust
    toolchain) into a venv of its own under RUNNER_TEMP (runner images mark the system
    Python externally managed, and the job's own Python stays untouched),
    whose bin directory then joins the job's PATH."""
    wheel = env("SHIPGATE_WHEEL")
    version = env("SHIPGATE_VERSION")
    existing = shutil.which("shipgate-client")
    if existing and not wheel and not version:
        print(f"shipgate-client is already on PATH ({existing}): nothing to install")
        set_output("installed", "false")
        set_output("client", existing)
        return 0
    if wheel:
        spec = os.path.abspath(wheel)
        if not os.path.isfile(spec):
            annotate("error", f"the wheel {wheel} does not exist")
            return 1
    elif version:
        # A bare version pins it; a specifier (">=0.5") is taken as written.
        spec = PACKAGE + (version if re.match(r"[<>=!~]", version) else f"=={version}")
    else:
        spec = build_wheel()
        if spec is None:
            return 1
    venv = os.path.join(runner_temp(), "shipgate-venv")
    print(f"installing {spec} into {venv}", flush=True)
    if subprocess.run([sys.executable, "-m", "venv", venv]).returncode != 0:
        annotate("error", f"could not make a venv in {venv} (python3 -m venv)")
        return 1
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install"]
    pip += ["--quiet", "--disable-pip-version-check", spec]
    if subprocess.run(pip).returncode != 0:
        annotate("error", f"pip could not install {spec}")
        return 1
    client = os.path.join(venv, "bin", "shipgate-client")
    if not os.path.isfile(client):
        annotate("error", f"{spec} installed no shipgate-client")
        return 1
    try:
        subprocess.run([client, "--version"], check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        annotate("error", f"the installed shipgate-client does not run: {err}")
        return 1
    add_path(os.path.dirname(client))
    set_output("installed", "true")
    set_output("client", client)
    return 0


def build_wheel():
    """The wheel `scripts/build-wheel.sh` builds from the action's own
    checkout (release; both programs), or None when it failed (said)."""
    source = os.environ.get("GITHUB_ACTION_PATH") or os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    )
    script = os.path.join(source, "scripts", "build-wheel.sh")
    out = os.path.join(runner_temp(), "shipgate-wheel")
    print("building shipgate from the action's source (several minutes: pass `version`", flush=True)
    print("or `wheel` to install a built one)", flush=True)
    built = subprocess.run([script, "--out", out], stdout=subprocess.PIPE, text=True)
    wheel = built.stdout.strip().splitlines()[-1] if built.stdout.strip() else ""
    if built.returncode != 0 or not os.path.isfile(wheel):
        annotate("error", f"scripts/build-wheel.sh could not build shipgate (exit {built.returncode})")
        return None
    return wheel


# ---------------------------------------------------------------- fetch


def default_branch():
    """The branch origin's HEAD names (`git ls-remote --symref`), or None."""
    code, out = git("ls-remote", "--symref", "origin", "HEAD")
    if code != 0:
        return None
    for line in out.splitlines():
        match = re.match(r"ref:\s+refs/heads/(\S+)\s+HEAD$", line)
        if match:
            return match.group(1)
    return None


def remote_kind(name):
    """Whether `name` is a branch or a tag of origin: "branch", "tag" or None."""
    code, out = git("ls-remote", "origin", f"refs/heads/{name}", f"refs/tags/{name}")
    if code != 0:
        return None
    refs = {line.split("\t", 1)[1] for line in out.splitlines() if "\t" in line}
    if f"refs/heads/{name}" in refs:
        return "branch"
    if f"refs/tags/{name}" in refs:
        return "tag"
    return None


def deepen_to_merge_base(base, refspec):
    """In a shallow clone (actions/checkout's default depth of 1), deepens
    the history until the base and HEAD meet, doubling the step; past
    ~3,000 commits, fetches everything."""
    depth = 50
    for _ in range(6):
        if git("merge-base", base, "HEAD")[0] == 0:
            return
        print(f"no merge base of {base} and HEAD yet: deepening by {depth}", flush=True)
        git("fetch", "--no-tags", "--quiet", f"--deepen={depth}", "origin", *refspec)
        depth *= 2
    if git("merge-base", base, "HEAD")[0] != 0:
        print("still no merge base: fetching the whole history", flush=True)
        git("fetch", "--no-tags", "--quiet", "--unshallow", "origin", *refspec)


def step_fetch():
    """Fetches the base from origin and outputs the ref to compare against
    (`base`): the `base` input, else the pull request's base branch, else
    origin's default branch; "" leaves the choice to the client (origin/HEAD,
    origin/main, ...). Never fails the job: a base it cannot fetch is left
    to the diff, whose error then names it."""
    if not os.path.isdir(working_directory()):
        annotate("warning", f"the working directory {working_directory()} does not exist")
        set_output("base", env("SHIPGATE_BASE"))
        return 0
    os.chdir(working_directory())
    event = load_event()
    pull_request = event.get("pull_request") or {}
    base = env("SHIPGATE_BASE") or (pull_request.get("base") or {}).get("ref") or ""
    if base.startswith("-"):
        # Never an option to git; the client refuses it by name.
        annotate("warning", f"the base {base!r} is not a ref")
        set_output("base", base)
        return 0
    if git("rev-parse", "--git-dir")[0] != 0:
        annotate("warning", f"{os.getcwd()} is not a git checkout")
        set_output("base", base)
        return 0
    if git("remote", "get-url", "origin")[0] != 0:
        print("no remote origin: comparing against local refs")
        set_output("base", base)
        return 0
    if not base:
        base = default_branch() or ""
        if not base:
            print("origin names no default branch: the client picks the base")
            set_output("base", "")
            return 0
    # `main`, `origin/main` and `refs/heads/main` name the same branch.
    name = re.sub(r"^(origin/|refs/heads/)", "", base)
    kind = remote_kind(name)
    if kind == "branch":
        refspec = [f"+refs/heads/{name}:refs/remotes/origin/{name}"]
        compare = f"origin/{name}"
    elif kind == "tag":
        refspec = [f"+refs/tags/{name}:refs/tags/{name}"]
        compare = f"refs/tags/{name}"
    elif re.fullmatch(r"[0-9a-fA-F]{40}", base):
        refspec = [base]
        compare = base
    else:
        print(f"{base} is no branch or tag of origin: using it as a local ref")
        refspec = []
        compare = base
    shallow = git("rev-parse", "--is-shallow-repository")[1] == "true"
    if refspec:
        depth = ["--depth=50"] if shallow else []
        print(f"fetching {refspec[0]} from origin", flush=True)
        if git("fetch", "--no-tags", "--quiet", *depth, "origin", *refspec)[0] != 0:
            annotate("warning", f"could not fetch {base} from origin")
    if shallow:
        deepen_to_merge_base(compare, refspec)
    print(f"base: {compare}")
    set_output("base", compare)
    return 0


# ---------------------------------------------------------------- diff


def run_client(args, cwd):
    """Runs the client: (exit code, stdout, stderr); a client that cannot
    be started counts as unreachable (1)."""
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    except OSError as err:
        return EXIT_UNREACHABLE, "", f"shipgate: cannot run {args[0]}: {err}\n"
    return done.returncode, done.stdout, done.stderr


def step_diff():
    """Compares the base with HEAD: the markdown (whose exit code and stderr
    are the verdict's), the JSON for `comparison_status`, and SARIF when
    asked, each into a file under RUNNER_TEMP/shipgate. Exits 0 whatever
    the comparison said: the verdict step ends the job."""
    client = env("SHIPGATE_CLIENT") or shutil.which("shipgate-client") or "shipgate-client"
    cwd = working_directory()
    out = os.path.join(runner_temp(), "shipgate")
    os.makedirs(out, exist_ok=True)
    args = [client, "diff", "--application", "--workspace", cwd]
    for flag, name in (
        ("--base", "SHIPGATE_COMPARE_BASE"),
        ("--scope", "SHIPGATE_SCOPE"),
        ("--fail-on", "SHIPGATE_FAIL_ON"),
        ("--policy", "SHIPGATE_POLICY"),
    ):
        if env(name):
            # `--flag=value`: a value starting with `-` stays a value.
            args.append(f"{flag}={env(name)}")
    print("running:", " ".join(args[1:]) + " --format markdown", flush=True)

    code, markdown, stderr = run_client(args + ["--format", "markdown"], cwd)
    echo_verbatim(stderr)
    stderr_file = os.path.join(out, "diff.stderr")
    with open(stderr_file, "w", encoding="utf-8") as f:
        f.write(stderr)
    answered = code in (EXIT_OK, EXIT_POLICY)

    files = {"markdown": "", "json": "", "sarif": ""}
    status = ""
    if answered:
        files["markdown"] = os.path.join(out, "comparison.md")
        with open(files["markdown"], "w", encoding="utf-8") as f:
            f.write(markdown)
        # The same flags, so the same policy: 3 still carries the answer.
        json_code, document, json_err = run_client(args + ["--format", "json"], cwd)
        if json_code in (EXIT_OK, EXIT_POLICY):
            files["json"] = os.path.join(out, "comparison.json")
            with open(files["json"], "w", encoding="utf-8") as f:
                f.write(document)
            try:
                status = json.loads(document).get("comparison_status", "")
            except json.JSONDecodeError:
                annotate("warning", "the JSON document did not parse")
        else:
            echo_verbatim(json_err)
        if env("SHIPGATE_SARIF").lower() == "true":
            sarif_code, log, sarif_err = run_client(args + ["--format", "sarif"], cwd)
            if sarif_code in (EXIT_OK, EXIT_POLICY):
                files["sarif"] = os.path.join(out, "comparison.sarif")
                with open(files["sarif"], "w", encoding="utf-8") as f:
                    f.write(log)
            else:
                echo_verbatim(sarif_err)
    print(f"shipgate-client exited {code}; comparison_status: {status or 'none'}")
    set_output("status", status)
    set_output("exit-code", str(code))
    set_output("markdown-file", files["markdown"])
    set_output("json-file", files["json"])
    set_output("sarif-file", files["sarif"])
    set_output("stderr-file", stderr_file)
    return 0


# ---------------------------------------------------------------- summary


def step_summary():
    """Appends the markdown (and the verdict, when not 0) to the job's
    step summary."""
    path = env("GITHUB_STEP_SUMMARY")
    if not path:
        print("GITHUB_STEP_SUMMARY is not set: no summary written")
        return 0
    parts = [read_text(env("SHIPGATE_MARKDOWN_FILE")).rstrip("\n")]
    parts.append(verdict_markdown(exit_code(), read_text(env("SHIPGATE_STDERR_FILE"))))
    with open(path, "a", encoding="utf-8") as out:
        out.write("\n\n".join(p for p in parts if p) + "\n")
    print(f"wrote the comparison to the step summary ({path})")
    return 0


# ---------------------------------------------------------------- comment


class ApiError(Exception):
    """A REST call that did not succeed: its status and message."""


def api(method, url, token, body=None):
    """One GitHub REST call: (decoded JSON, the next page's URL or None)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/vnd.github+json")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("X-GitHub-Api-Version", "2022-11-28")
    request.add_header("User-Agent", "shipgate-action")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            payload = json.loads(response.read() or b"null")
            link = response.headers.get("Link", "")
    except urllib.error.HTTPError as err:
        detail = err.read().decode("utf-8", "replace").strip()
        raise ApiError(f"{method} {url}: HTTP {err.code} {detail}") from None
    except (urllib.error.URLError, OSError) as err:
        raise ApiError(f"{method} {url}: {err}") from None
    match = re.search(r'<([^>]+)>;\s*rel="next"', link)
    return payload, (match.group(1) if match else None)


def find_comment(base_url, token):
    """The pull request's comment that starts with the marker, following
    the listing's pages; None when there is none."""
    url = f"{base_url}?per_page=100"
    while url:
        comments, url = api("GET", url, token)
        for comment in comments or []:
            if (comment.get("body") or "").lstrip().startswith(MARKER):
                return comment
    return None


def comment_body(markdown, code, stderr):
    """The marker, the comparison and the verdict, within GitHub's limit."""
    verdict = verdict_markdown(code, stderr)
    tail = f"\n\n{verdict}\n" if verdict else "\n"
    room = COMMENT_LIMIT - len(MARKER) - 1 - len(tail)
    text = markdown.rstrip("\n")
    if len(text) > room:
        cut = "\n\n… (cut to fit a comment; the job summary has it all)"
        text = text[: room - len(cut)] + cut
    return f"{MARKER}\n{text}{tail}"


def step_comment():
    """On a pull request, edits the comment carrying the marker, or posts
    one. A refused call (a fork's read-only token) is a warning, not a
    failure: the summary and the verdict still stand."""
    if env("SHIPGATE_COMMENT", "true").lower() != "true":
        print("comment: false: no comment")
        return 0
    event_name = env("GITHUB_EVENT_NAME")
    if event_name not in ("pull_request", "pull_request_target"):
        print(f"not a pull request ({event_name or 'no event'}): no comment")
        return 0
    event = load_event()
    number = (event.get("pull_request") or {}).get("number") or event.get("number")
    if not number:
        annotate("warning", "the event names no pull request number: no comment")
        return 0
    markdown = read_text(env("SHIPGATE_MARKDOWN_FILE"))
    if not markdown.strip():
        print(f"no comparison to post (the diff exited {exit_code()})")
        return 0
    token = env("SHIPGATE_GITHUB_TOKEN")
    repository = env("GITHUB_REPOSITORY")
    if not token or not repository:
        annotate("warning", "no github-token or GITHUB_REPOSITORY: no comment")
        return 0
    api_url = env("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    body = comment_body(markdown, exit_code(), read_text(env("SHIPGATE_STDERR_FILE")))
    try:
        existing = find_comment(f"{api_url}/repos/{repository}/issues/{number}/comments", token)
        if existing:
            url = f"{api_url}/repos/{repository}/issues/comments/{existing['id']}"
            comment, _ = api("PATCH", url, token, {"body": body})
            print(f"updated the shipgate comment {comment.get('html_url', existing['id'])}")
        else:
            url = f"{api_url}/repos/{repository}/issues/{number}/comments"
            comment, _ = api("POST", url, token, {"body": body})
            print(f"posted the shipgate comment {comment.get('html_url', comment.get('id'))}")
    except ApiError as err:
        annotate(
            "warning",
            f"could not post the shipgate comment ({err}); a pull request from a fork "
            "gets a read-only token: the job summary has the comparison",
        )
        return 0
    set_output("comment-id", str(comment.get("id", "")))
    return 0


# ---------------------------------------------------------------- verdict


def step_verdict():
    """Ends the job: green when the diff exited 0; red with one `::error::`
    annotation per finding when the policy tripped (3), the headline and
    the hint as notices; red with the client's message when it failed (2
    bad input, 1 unreachable)."""
    code = exit_code()
    stderr = read_text(env("SHIPGATE_STDERR_FILE"))
    if code == EXIT_OK:
        print("shipgate: the change trips no policy")
        return 0
    if code == EXIT_POLICY:
        lines = policy_lines(stderr)
        findings = [line for line in lines if is_finding(line)]
        if not findings:
            # A wording this script does not know: every line is an error.
            findings = lines or ["shipgate: policy: the change trips the policy"]
        for line in lines:
            if line not in findings:
                annotate("notice", line)
        for line in findings:
            annotate("error", line)
        return EXIT_POLICY
    annotate("error", stderr.strip() or f"shipgate-client exited {code}")
    return code if 0 < code < 256 else 1


STEPS = {
    "install": step_install,
    "fetch": step_fetch,
    "diff": step_diff,
    "summary": step_summary,
    "comment": step_comment,
    "verdict": step_verdict,
}


def main(argv):
    if len(argv) != 2 or argv[1] not in STEPS:
        print(f"usage: {argv[0]} {{{','.join(STEPS)}}}", file=sys.stderr)
        return 2
    return STEPS[argv[1]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
