"""Where a call is written: the repository frame that made an object, and the AST around it."""

import ast
import os
import sys

from .guards import ORIG_OPEN

root = ""  # the extracted tree (set by `configure`)
recorder_files = set()  # the recorder's own files: their frames are never a call site
ast_cache = {}
call_index = {}


def configure(tree_root, own_files):
    global root, recorder_files
    root = tree_root
    recorder_files = set(own_files)


def rel(path):
    try:
        p = os.path.realpath(path)
    except Exception:
        return None
    if p.startswith(root + os.sep):
        return os.path.relpath(p, root)
    return None


def position(frame):
    try:
        return list(frame.f_code.co_positions())[frame.f_lasti // 2]
    except Exception:
        return (frame.f_lineno, frame.f_lineno, None, None)


def call_site(skip_self=None):
    """First frame of a repository file that is not the recorder and not
    a method of the object being built."""
    f = sys._getframe(1)
    site = None
    stack = []
    while f is not None:
        fn = f.f_code.co_filename
        if os.path.realpath(fn) in recorder_files or fn.startswith("<"):
            f = f.f_back
            continue
        if skip_self is not None and f.f_locals.get("self") is skip_self:
            f = f.f_back
            continue
        r = rel(fn)
        if r is not None:
            qual = getattr(f.f_code, "co_qualname", f.f_code.co_name)
            if site is None:
                pos = position(f)
                site = {"file": r, "line": f.f_lineno, "col": pos[2],
                        "function": qual}
            if len(stack) < 8:
                stack.append("%s:%d:%s" % (r, f.f_lineno, qual))
        f = f.f_back
    return site, stack


def parse(relfile):
    if relfile not in ast_cache:
        try:
            with ORIG_OPEN(os.path.join(root, relfile), "rb") as fh:
                ast_cache[relfile] = ast.parse(fh.read())
        except Exception:
            ast_cache[relfile] = None
    return ast_cache[relfile]


def target_text(t):
    if isinstance(t, ast.Name):
        return t.id
    if isinstance(t, ast.Attribute):
        base = target_text(t.value)
        return base + "." + t.attr if base else None
    return None


def assigned_to(site):
    """The plain name (or dotted attribute) a call at `site` is assigned
    to, when it is the whole right-hand side of an assignment or a
    `with ... as name` item."""
    if not site:
        return None
    tree = parse(site["file"])
    if tree is None:
        return None
    line, col = site["line"], site["col"]

    def is_it(value):
        while isinstance(value, ast.Await):
            value = value.value
        return (isinstance(value, ast.Call) and value.lineno == line
                and (col is None or value.col_offset == col))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and is_it(node.value):
            return target_text(node.targets[0])
        if isinstance(node, ast.AnnAssign) and node.value is not None and is_it(node.value):
            return target_text(node.target)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if is_it(item.context_expr) and item.optional_vars is not None:
                    return target_text(item.optional_vars)
    return None


def call_at(site):
    """The ast.Call written at `site` (line and column of the call)."""
    if not site or site.get("col") is None:
        return None
    f = site["file"]
    if f not in call_index:
        idx = {}
        tree = parse(f)
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, ast.Call):
                idx[(node.lineno, node.col_offset)] = node
        call_index[f] = idx
    return call_index[f].get((site["line"], site["col"]))


def last_name(node):
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
