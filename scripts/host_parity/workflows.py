"""GitHub workflows (`.github/workflows/*.yml`): drawing a model and editing its triggers,
top-level and job permissions, jobs and steps."""

import json
import os

from .vocabulary import ACTION_REFS, ACTIONS, JOB_NAMES, PERMISSION_CHOICES, RUN_COMMANDS, TRIGGERS, pick


def draw_permissions(rng):
    choice = rng.choice(PERMISSION_CHOICES)
    return json.loads(json.dumps(choice))


def set_permissions(holder, perms):
    if perms == "absent":
        holder.pop("permissions", None)
    else:
        holder["permissions"] = perms


def draw_job(rng):
    if rng.random() < 0.1:
        return {"uses": f"org/shared/.github/workflows/build.yml@{rng.choice(ACTION_REFS[:3])}"}
    steps = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            steps.append({"uses": f"{rng.choice(ACTIONS)}@{rng.choice(ACTION_REFS)}"})
        else:
            steps.append({"run": rng.choice(RUN_COMMANDS)})
    job = {"steps": steps}
    if rng.random() < 0.3:
        set_permissions(job, draw_permissions(rng))
    return job


def draw_workflow(rng, secrets, path):
    triggers = pick(rng, TRIGGERS[:5], rng.randint(1, 2))
    if rng.random() < 0.1:
        triggers.append("pull_request_target")
    model = {"name": os.path.splitext(os.path.basename(path))[0], "on": triggers}
    if "push" in triggers and rng.random() < 0.3:
        model["branches"] = {"push": ["main"]}
    set_permissions(model, draw_permissions(rng))
    model["jobs"] = {name: draw_job(rng) for name in pick(rng, JOB_NAMES, rng.randint(1, 2))}
    return model


def edit_add_trigger(rng, src, secrets):
    options = [t for t in TRIGGERS if t not in src.head["on"]]
    if not options:
        return False
    trigger = "pull_request_target" if rng.random() < 0.3 and "pull_request_target" in options else rng.choice(options)
    src.head["on"].append(trigger)
    src.note(f"add trigger {trigger}")
    return True


def edit_remove_trigger(rng, src, secrets):
    if len(src.head["on"]) < 2:
        return False
    trigger = rng.choice(src.head["on"])
    src.head["on"].remove(trigger)
    src.head.get("branches", {}).pop(trigger, None)
    src.note(f"remove trigger {trigger}")
    return True


def edit_top_permissions(rng, src, secrets):
    perms = draw_permissions(rng)
    if perms == src.head.get("permissions", "absent"):
        return False
    set_permissions(src.head, perms)
    src.note(f"workflow permissions -> {json.dumps(perms)}")
    return True


def edit_job_permissions(rng, src, secrets):
    job_id = rng.choice(list(src.head["jobs"]))
    perms = draw_permissions(rng)
    set_permissions(src.head["jobs"][job_id], perms)
    src.note(f"job {job_id} permissions -> {json.dumps(perms)}")
    return True


def edit_jobs(rng, src, secrets):
    jobs = src.head["jobs"]
    action = rng.choice(("add", "remove", "rename"))
    if action == "add" or len(jobs) < 2 and action == "remove":
        name = rng.choice([j for j in JOB_NAMES if j not in jobs])
        jobs[name] = draw_job(rng)
    elif action == "remove":
        name = rng.choice(list(jobs))
        del jobs[name]
    else:
        name = rng.choice(list(jobs))
        new = rng.choice([j for j in JOB_NAMES if j not in jobs])
        src.head["jobs"] = {new if k == name else k: v for k, v in jobs.items()}
        name = f"{name} -> {new}"
    src.note(f"{action} job {name}")
    return True


def edit_steps(rng, src, secrets):
    jobs = [(k, j) for k, j in src.head["jobs"].items() if "steps" in j]
    if not jobs:
        return False
    job_id, job = rng.choice(jobs)
    steps = job["steps"]
    action = rng.choice(("ref", "add-uses", "remove", "run"))
    uses = [s for s in steps if "uses" in s]
    if action == "ref" and uses:
        step = rng.choice(uses)
        action_name, ref = step["uses"].split("@", 1)
        step["uses"] = f"{action_name}@{rng.choice([r for r in ACTION_REFS if r != ref])}"
    elif action == "remove" and len(steps) > 1:
        steps.pop(rng.randrange(len(steps)))
    elif action == "run":
        steps.append({"run": rng.choice(RUN_COMMANDS)})
    else:
        steps.append({"uses": f"{rng.choice(ACTIONS)}@{rng.choice(ACTION_REFS)}"})
        action = "add-uses"
    src.note(f"job {job_id} steps: {action}")
    return True


def edit_workflow_noise(rng, src, secrets):
    if rng.random() < 0.5:
        src.head["name"] = src.head["name"] + "-renamed"
        src.note("rename the workflow's name:")
    else:
        src.head_style = rng.choice([s for s in ("normal", "map-on", "quoted-on") if s != src.style])
        src.note(f"restyle the workflow ({src.head_style})")
    return True


WORKFLOW_EDITS = [
    (7, edit_add_trigger), (4, edit_remove_trigger), (10, edit_top_permissions), (6, edit_job_permissions),
    (5, edit_jobs), (7, edit_steps), (2, edit_workflow_noise),
]
