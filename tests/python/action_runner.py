#!/usr/bin/env python3
"""A GitHub Actions runner emulator for one composite action: enough of a
runner to run the repository's `action.yml` as a job step would, with a
stub of the REST API's issue-comment endpoints on 127.0.0.1.

It parses action.yml (PyYAML), checks what a runner refuses (a composite
action without `using: composite`, a `run:` step without `shell:`, an
undeclared input) and what this project forbids (an expression in `run:`
text other than `github.action_path`: inputs reach the scripts only through
`env:`), and then runs the steps in order as the runner does:

  * the environment a runner sets: GITHUB_ACTION_PATH, GITHUB_WORKSPACE,
    GITHUB_EVENT_NAME, GITHUB_EVENT_PATH (a pull_request payload holding
    `number` and `base.ref`), GITHUB_REPOSITORY, GITHUB_API_URL (the stub),
    GITHUB_BASE_REF/GITHUB_HEAD_REF, RUNNER_TEMP, CI, GITHUB_ACTIONS, and
    per step fresh GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and
    GITHUB_STEP_SUMMARY files, read back after the step;
  * `${{ }}` expressions (contexts inputs, github, steps, env, runner; the
    operators ! == != < <= > >= && || and the functions success(),
    failure(), always(), cancelled(), contains(), startsWith(), endsWith(),
    format()) in inputs' defaults, `env:`, `with:`, `if:`, `run:` and the
    action's `outputs:`; `if:` without a status function means
    `success() && (...)`, as on a runner;
  * `run:` steps with `bash --noprofile --norc -eo pipefail FILE`, stdout
    and stderr merged, workflow commands (`::error::` etc.,
    `::stop-commands::`) read from the output;
  * `uses:` steps are not run: the report records whether their `if:`
    would have run them, and their evaluated `with:`.

The stub API serves GET/POST `/repos/{owner}/{repo}/issues/{n}/comments`
(paginated with `per_page`/`page` and a `Link` header) and GET/PATCH
`/repos/{owner}/{repo}/issues/comments/{id}`, checks the bearer token and
records every request. `--api-state FILE` keeps its comments between runs
(so a second run can find the first run's comment).

The report (`--report FILE`, JSON): the steps (id, if, ran, outcome, exit
code, output text, outputs, with), the action's outputs, the job summary,
the annotations, and the API requests of this run. Exit status: 0 when
every step succeeded, 1 when one failed (a red job), 2 when the action is
malformed.
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ActionError(Exception):
    """The action is malformed (what a runner would refuse)."""


# ------------------------------------------------------------ expressions

TOKEN = re.compile(
    r"""\s*(?:
        (?P<string>'(?:[^']|'')*')
      | (?P<number>-?\d+(?:\.\d+)?)
      | (?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\].,*])
      | (?P<ident>[A-Za-z_][A-Za-z0-9_-]*)
    )""",
    re.VERBOSE,
)


def tokenize(text):
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ActionError(f"cannot read the expression {text!r} at {pos}")
        pos = match.end()
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "string":
            tokens.append(("lit", value[1:-1].replace("''", "'")))
        elif kind == "number":
            tokens.append(("lit", float(value) if "." in value else int(value)))
        elif kind == "ident" and value in ("true", "false", "null"):
            tokens.append(("lit", {"true": True, "false": False, "null": None}[value]))
        else:
            tokens.append((kind, value))
    return tokens


def truthy(value):
    if isinstance(value, float) and math.isnan(value):
        return False
    return value not in (None, False, 0, "")


def to_number(value):
    if value is None:
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return float(value.strip()) if value.strip() else 0
        except ValueError:
            return math.nan
    return math.nan


def to_string(value):
    """An expression's value as `${{ }}` splices it into text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def compare(left, right):
    """(equal, ordering) with the runner's coercions: strings compare
    case-insensitively; mixed types compare as numbers."""
    if isinstance(left, str) and isinstance(right, str):
        a, b = left.casefold(), right.casefold()
    elif type(left) is type(right) and not isinstance(left, (dict, list)):
        a, b = left, right
    elif isinstance(left, (dict, list)) or isinstance(right, (dict, list)):
        return left is right, None
    else:
        a, b = to_number(left), to_number(right)
        if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
            return False, None
    return a == b, (a > b) - (a < b)


class Evaluator:
    """Recursive descent over the tokens: || < && < comparison < ! < access."""

    def __init__(self, tokens, contexts, status):
        self.tokens, self.pos = tokens, 0
        self.contexts, self.status = contexts, status

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, value=None):
        token = self.peek()
        if value is not None and token[1] != value:
            raise ActionError(f"expected {value!r}, found {token[1]!r}")
        self.pos += 1
        return token

    def parse(self):
        value = self.or_()
        if self.pos != len(self.tokens):
            raise ActionError(f"unexpected {self.peek()[1]!r} in the expression")
        return value

    def or_(self):
        value = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            right = self.and_()
            value = value if truthy(value) else right
        return value

    def and_(self):
        value = self.comparison()
        while self.peek() == ("op", "&&"):
            self.take()
            right = self.comparison()
            value = right if truthy(value) else value
        return value

    def comparison(self):
        value = self.unary()
        while self.peek()[0] == "op" and self.peek()[1] in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            right = self.unary()
            equal, order = compare(value, right)
            if op == "==":
                value = equal
            elif op == "!=":
                value = not equal
            elif order is None:
                value = False
            else:
                value = {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0}[op]
        return value

    def unary(self):
        if self.peek() == ("op", "!"):
            self.take()
            return not truthy(self.unary())
        return self.access()

    def access(self):
        kind, value = self.take()
        if kind == "lit":
            result = value
        elif kind == "op" and value == "(":
            result = self.or_()
            self.take(")")
        elif kind == "ident" and self.peek() == ("op", "("):
            result = self.call(value)
        elif kind == "ident":
            if value not in self.contexts:
                raise ActionError(f"unknown context {value!r}")
            result = self.contexts[value]
        else:
            raise ActionError(f"unexpected {value!r} in the expression")
        while self.peek() in (("op", "."), ("op", "[")):
            if self.take()[1] == ".":
                name = self.take()[1]
                result = result.get(name) if isinstance(result, dict) else None
            else:
                key = self.or_()
                self.take("]")
                if isinstance(result, dict):
                    result = result.get(to_string(key))
                elif isinstance(result, list) and isinstance(key, int) and 0 <= key < len(result):
                    result = result[key]
                else:
                    result = None
        return result

    def call(self, name):
        self.take("(")
        args = []
        while self.peek() != ("op", ")"):
            args.append(self.or_())
            if self.peek() == ("op", ","):
                self.take()
        self.take(")")
        lowered = name.lower()
        if lowered == "success":
            return self.status == "success"
        if lowered == "failure":
            return self.status == "failure"
        if lowered == "always":
            return True
        if lowered == "cancelled":
            return False
        if lowered == "contains":
            haystack, needle = args
            if isinstance(haystack, list):
                return any(compare(item, needle)[0] for item in haystack)
            return to_string(needle).casefold() in to_string(haystack).casefold()
        if lowered == "startswith":
            return to_string(args[0]).casefold().startswith(to_string(args[1]).casefold())
        if lowered == "endswith":
            return to_string(args[0]).casefold().endswith(to_string(args[1]).casefold())
        if lowered == "format":
            return re.sub(r"\{(\d+)\}", lambda m: to_string(args[1 + int(m.group(1))]), args[0])
        if lowered == "tojson":
            return json.dumps(args[0], indent=2)
        if lowered == "fromjson":
            return json.loads(args[0])
        raise ActionError(f"unknown function {name}()")


STATUS_FUNCTIONS = re.compile(r"\b(success|failure|always|cancelled)\s*\(", re.IGNORECASE)
TEMPLATE = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)


def evaluate(expression, contexts, status="success"):
    return Evaluator(tokenize(expression), contexts, status).parse()


def interpolate(text, contexts):
    """Text with every `${{ expr }}` replaced by its value as a string."""
    if not isinstance(text, str):
        return to_string(text)
    return TEMPLATE.sub(lambda m: to_string(evaluate(m.group(1), contexts)), text)


def condition(text, contexts, status):
    """A step's `if:`: true when absent means `success()`; a condition
    without a status function is `success() && (condition)`."""
    if text is None:
        return status == "success"
    if isinstance(text, bool):
        return text and status == "success"
    text = str(text).strip()
    whole = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.DOTALL)
    if whole:
        text = whole.group(1)
    if not STATUS_FUNCTIONS.search(text):
        text = f"success() && ({text})"
    return truthy(evaluate(text, contexts, status))


# ------------------------------------------------------------ the stub API


class CommentApi:
    """The issue-comment endpoints of GitHub's REST API, in memory, loaded
    from and saved to a state file so comments outlive one run."""

    def __init__(self, state_file, repository, token, seed):
        self.state_file, self.repository, self.token = state_file, repository, token
        self.lock = threading.Lock()
        self.requests = []
        # Seeded only when the state is new: later runs see the same thread.
        self.seed = 0
        if state_file and os.path.exists(state_file):
            with open(state_file, encoding="utf-8") as f:
                self.state = json.load(f)
        else:
            self.state = {"next_id": 1000, "comments": {}}
            self.seed = seed
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def seed_comments(self, number, count):
        """`count` comments by someone else on issue `number`, none marked."""
        for i in range(count):
            self.new_comment(number, f"Looks good to me ({i}).", ("reviewer", "User"))

    def new_comment(self, number, body, user):
        self.state["next_id"] += 1
        comment_id = self.state["next_id"]
        comment = {
            "id": comment_id,
            "body": body,
            "user": {"login": user[0], "type": user[1]},
            "html_url": f"https://github.test/{self.repository}/pull/{number}#issuecomment-{comment_id}",
            "issue_number": number,
        }
        self.state["comments"].setdefault(str(number), []).append(comment)
        return comment

    def start(self):
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        if self.state_file:
            with open(self.state_file, "w", encoding="utf-8") as f:
                json.dump(self.state, f, indent=1)

    def handler(self):
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, status, payload, headers=()):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def handle_any(self, method):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw.decode("utf-8", "replace")
                auth = self.headers.get("Authorization", "")
                authorized = auth in (f"Bearer {api.token}", f"token {api.token}")
                with api.lock:
                    api.requests.append(
                        {
                            "method": method,
                            "path": url.path,
                            "query": query,
                            "body": body,
                            "authorized": authorized,
                            "accept": self.headers.get("Accept", ""),
                        }
                    )
                    if not authorized:
                        return self.reply(401, {"message": "Bad credentials"})
                    return self.route(method, url.path, query, body)

            def route(self, method, path, query, body):
                prefix = f"/repos/{api.repository}/issues/"
                listing = re.fullmatch(re.escape(prefix) + r"(\d+)/comments", path)
                single = re.fullmatch(re.escape(prefix) + r"comments/(\d+)", path)
                if listing and method == "GET":
                    comments = api.state["comments"].get(listing.group(1), [])
                    per_page = min(int(query.get("per_page", 30)), 100)
                    page = int(query.get("page", 1))
                    chunk = comments[(page - 1) * per_page : page * per_page]
                    headers = []
                    if page * per_page < len(comments):
                        host = self.headers.get("Host")
                        nxt = urllib.parse.urlencode({"per_page": per_page, "page": page + 1})
                        headers.append(("Link", f'<http://{host}{path}?{nxt}>; rel="next"'))
                    return self.reply(200, chunk, headers)
                if listing and method == "POST":
                    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
                        return self.reply(422, {"message": "body is missing"})
                    number = int(listing.group(1))
                    comment = api.new_comment(number, body["body"], ("github-actions[bot]", "Bot"))
                    return self.reply(201, comment)
                if single:
                    found = [
                        c
                        for comments in api.state["comments"].values()
                        for c in comments
                        if c["id"] == int(single.group(1))
                    ]
                    if not found:
                        return self.reply(404, {"message": "Not Found"})
                    if method == "GET":
                        return self.reply(200, found[0])
                    if method == "PATCH":
                        if not isinstance(body, dict) or not isinstance(body.get("body"), str):
                            return self.reply(422, {"message": "body is missing"})
                        found[0]["body"] = body["body"]
                        return self.reply(200, found[0])
                return self.reply(404, {"message": "Not Found"})

            def do_GET(self):
                self.handle_any("GET")

            def do_POST(self):
                self.handle_any("POST")

            def do_PATCH(self):
                self.handle_any("PATCH")

            def do_DELETE(self):
                self.handle_any("DELETE")

        return Handler


# ------------------------------------------------------------ the runner

COMMAND = re.compile(r"^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$")


def unescape(text):
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def read_outputs(path):
    """A GITHUB_OUTPUT/GITHUB_ENV file: `name=value` and `name<<DELIM` blocks."""
    values = {}
    if not os.path.exists(path):
        return values
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            while i < len(lines) and lines[i] != delimiter:
                block.append(lines[i])
                i += 1
            if i == len(lines):
                raise ActionError(f"{path}: no closing delimiter {delimiter!r} for {name}")
            i += 1
            values[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise ActionError(f"{path}: cannot read {line!r}")
    return values


def read_file(path):
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_action(action):
    """What a runner refuses, and the rule that inputs reach `run:` text
    only through `env:`."""
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        raise ActionError("runs.using is not composite")
    steps = runs.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ActionError("runs.steps is empty")
    ids = set()
    for i, step in enumerate(steps):
        if ("run" in step) == ("uses" in step):
            raise ActionError(f"step {i} needs exactly one of run: and uses:")
        if "run" in step and not step.get("shell"):
            raise ActionError(f"step {i} (run:) has no shell:, which composite actions require")
        if step.get("id"):
            if step["id"] in ids:
                raise ActionError(f"step id {step['id']} is used twice")
            ids.add(step["id"])
        for match in TEMPLATE.finditer(str(step.get("run", ""))):
            if match.group(1).strip() != "github.action_path":
                raise ActionError(
                    f"step {step.get('id', i)}: the expression ${{{{{match.group(1)}}}}} in run: "
                    "text (pass it through env:)"
                )
    # Every `inputs.X` and `steps.X` an expression names must exist.
    expressions = [m.group(1) for m in TEMPLATE.finditer(json.dumps(action))]
    expressions += [str(step["if"]) for step in steps if "if" in step]
    for text in expressions:
        for name in re.findall(r"\binputs\.([A-Za-z0-9_-]+)", text):
            if name not in (action.get("inputs") or {}):
                raise ActionError(f"the action reads the undeclared input {name}")
        for name in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)", text):
            if name not in ids:
                raise ActionError(f"the action reads the outputs of an unknown step {name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--action-dir", default=ROOT, help="the directory holding action.yml")
    parser.add_argument("--workspace", required=True, help="the checkout (GITHUB_WORKSPACE)")
    parser.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--event-name", default="pull_request")
    parser.add_argument("--pr-number", type=int, default=7)
    parser.add_argument("--base-ref", default="main")
    parser.add_argument("--head-ref", default="feature")
    parser.add_argument("--repository", default="octo-org/octo-repo")
    parser.add_argument("--token", default="ghs_emulated_token")
    parser.add_argument("--api-state", help="the stub API's comments, kept between runs")
    parser.add_argument("--api-seed-comments", type=int, default=0)
    parser.add_argument("--report", help="where to write the JSON report")
    parser.add_argument(
        "--temp", help="the runner's scratch directory (RUNNER_TEMP below it); default: a fresh one, removed at the end"
    )
    args = parser.parse_args()

    try:
        with open(os.path.join(args.action_dir, "action.yml"), encoding="utf-8") as f:
            action = yaml.safe_load(f)
        check_action(action)
        declared = action.get("inputs") or {}
        given = {}
        for item in args.input:
            name, sep, value = item.partition("=")
            if not sep or name not in declared:
                raise ActionError(f"unexpected input {item!r} (declared: {', '.join(declared)})")
            given[name] = value
    except ActionError as err:
        print(f"action_runner: {err}", file=sys.stderr)
        return 2

    if args.temp:
        temp = os.path.abspath(args.temp)
        os.makedirs(temp, exist_ok=True)
    else:
        temp = tempfile.mkdtemp(prefix="action-runner-")
    runner_temp = os.path.join(temp, "temp")
    commands_dir = os.path.join(temp, "file_commands")
    os.makedirs(runner_temp)
    os.makedirs(commands_dir)

    api = CommentApi(args.api_state, args.repository, args.token, args.api_seed_comments)
    api.seed_comments(args.pr_number, api.seed)
    api.start()

    # The webhook payload and the github context built from it.
    workspace = os.path.abspath(args.workspace)
    if args.event_name in ("pull_request", "pull_request_target"):
        event = {
            "action": "synchronize",
            "number": args.pr_number,
            "pull_request": {
                "number": args.pr_number,
                "base": {"ref": args.base_ref},
                "head": {"ref": args.head_ref},
            },
            "repository": {"full_name": args.repository},
        }
    else:
        event = {"ref": f"refs/heads/{args.head_ref}", "repository": {"full_name": args.repository}}
    event_path = os.path.join(temp, "event.json")
    with open(event_path, "w", encoding="utf-8") as f:
        json.dump(event, f)
    is_pr = args.event_name in ("pull_request", "pull_request_target")
    github = {
        "action_path": os.path.abspath(args.action_dir),
        "workspace": workspace,
        "event_name": args.event_name,
        "event": event,
        "event_path": event_path,
        "repository": args.repository,
        "repository_owner": args.repository.split("/")[0],
        "api_url": api.url,
        "server_url": "https://github.test",
        "token": args.token,
        "base_ref": args.base_ref if is_pr else "",
        "head_ref": args.head_ref if is_pr else "",
        "ref": f"refs/pull/{args.pr_number}/merge" if is_pr else f"refs/heads/{args.head_ref}",
        "run_id": "1",
        "run_attempt": "1",
    }
    base_env = dict(os.environ)
    base_env.update(
        {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_ACTION_PATH": github["action_path"],
            "GITHUB_WORKSPACE": workspace,
            "GITHUB_EVENT_NAME": args.event_name,
            "GITHUB_EVENT_PATH": event_path,
            "GITHUB_REPOSITORY": args.repository,
            "GITHUB_REPOSITORY_OWNER": github["repository_owner"],
            "GITHUB_API_URL": api.url,
            "GITHUB_SERVER_URL": github["server_url"],
            "GITHUB_BASE_REF": github["base_ref"],
            "GITHUB_HEAD_REF": github["head_ref"],
            "GITHUB_REF": github["ref"],
            "GITHUB_RUN_ID": "1",
            "RUNNER_TEMP": runner_temp,
            "RUNNER_OS": "Linux",
        }
    )
    contexts = {
        "github": github,
        "inputs": {},
        "steps": {},
        "env": {},
        "runner": {"temp": runner_temp, "os": "Linux"},
    }
    # Inputs: given, else the default (itself an expression over github).
    for name, spec in declared.items():
        spec = spec or {}
        contexts["inputs"][name] = given.get(name, interpolate(spec.get("default", ""), contexts))

    report = {"steps": [], "annotations": [], "summary": "", "outputs": {}, "inputs": contexts["inputs"]}
    status = "success"
    try:
        for index, step in enumerate(action["runs"]["steps"]):
            step_id = step.get("id") or f"__step{index}"
            record = {"id": step_id, "name": step.get("name", step_id), "if": step.get("if")}
            report["steps"].append(record)
            record["if_result"] = condition(step.get("if"), contexts, status)
            if not record["if_result"]:
                record.update(ran=False, outcome="skipped")
                contexts["steps"][step_id] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
                print(f"::group::skipped: {record['name']}\n::endgroup::", flush=True)
                continue
            if "uses" in step:
                # Not run: recorded with what it would have been given.
                with_ = {k: interpolate(v, contexts) for k, v in (step.get("with") or {}).items()}
                record.update(ran=False, would_run=True, outcome="not-emulated", uses=step["uses"], with_=with_)
                contexts["steps"][step_id] = {"outputs": {}, "outcome": "success", "conclusion": "success"}
                print(f"would run {step['uses']} with {json.dumps(with_)}", flush=True)
                continue
            record.update(run_step(step, step_id, index, contexts, base_env, commands_dir, workspace, report))
            if record["outcome"] == "failure" and not step.get("continue-on-error"):
                status = "failure"
        for name, spec in (action.get("outputs") or {}).items():
            report["outputs"][name] = interpolate((spec or {}).get("value", ""), contexts)
    except ActionError as err:
        print(f"action_runner: {err}", file=sys.stderr)
        return 2
    finally:
        api.stop()
        report["api_requests"] = api.requests
        report["api_url"] = api.url
        report["status"] = status
        report["runner_temp"] = runner_temp
        if args.report:
            with open(args.report, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=1)
        if not args.temp:
            shutil.rmtree(temp, ignore_errors=True)
    print(f"job status: {status}", flush=True)
    return 0 if status == "success" else 1


def run_step(step, step_id, index, contexts, base_env, commands_dir, workspace, report):
    """Runs one `run:` step as the runner does; returns its record's fields."""
    files = {
        name: os.path.join(commands_dir, f"{name.lower()}_{index}")
        for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE")
    }
    for path in files.values():
        open(path, "w").close()
    env = dict(base_env)
    env.update(files)
    step_env = {k: interpolate(v, contexts) for k, v in (step.get("env") or {}).items()}
    env.update(step_env)
    script = interpolate(step["run"], contexts)
    script_path = os.path.join(commands_dir, f"step_{index}.sh")
    with open(script_path, "w", encoding="utf-8") as f:
        f.write(script)
    shell = step["shell"]
    if shell != "bash":
        raise ActionError(f"step {step_id}: the emulator runs shell: bash only, not {shell}")
    cwd = os.path.join(workspace, interpolate(step.get("working-directory", "."), contexts))
    print(f"::group::Run {step.get('name', step_id)}", flush=True)
    process = subprocess.Popen(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", script_path],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = []
    stopped = None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        output.append(line)
        text = line.rstrip("\n")
        match = COMMAND.match(text)
        if not match:
            continue
        command, message = match.group(1), match.group(3)
        if stopped is not None:
            if command == stopped and message == "":
                stopped = None
            continue
        if command == "stop-commands":
            stopped = message
        elif command in ("error", "warning", "notice"):
            report["annotations"].append({"step": step_id, "level": command, "message": unescape(message)})
    code = process.wait()
    print("::endgroup::", flush=True)
    outputs = read_outputs(files["GITHUB_OUTPUT"])
    # What the step exported: later steps see it.
    base_env.update(read_outputs(files["GITHUB_ENV"]))
    added = [p for p in read_file(files["GITHUB_PATH"]).splitlines() if p]
    if added:
        base_env["PATH"] = os.pathsep.join(reversed(added)) + os.pathsep + base_env.get("PATH", "")
    report["summary"] += read_file(files["GITHUB_STEP_SUMMARY"])
    outcome = "success" if code == 0 else "failure"
    contexts["steps"][step_id] = {"outputs": outputs, "outcome": outcome, "conclusion": outcome}
    return {
        "ran": True,
        "outcome": outcome,
        "exit_code": code,
        "env": step_env,
        "output": "".join(output),
        "outputs": outputs,
        "path_added": added,
    }


if __name__ == "__main__":
    sys.exit(main())
