#!/usr/bin/env python3
"""rename-similarity-check.py [MIRRORS]: holds `daemon/src/renames.rs`'s measure (ported line for line:
chunks cut at each newline or 64 bytes, a CR before LF dropped, shared bytes over the larger size) to
git's own figure on every inexact `.py` rename (R050-R099) of the last 300 commits of each mirror
(default /work/.mirror/*/repo), up to 15 a repository; prints the pairs that differ and the count."""
import os
import subprocess
import sys

def chunks(b):
    m = {}
    i = 0
    while i < len(b):
        w = b[i:i+64]
        j = w.find(b"\n")
        l = j + 1 if j >= 0 else len(w)
        c = b[i:i+l]
        if c.endswith(b"\r\n"):
            k = c[:-2] + b"\n"; n = l - 1
        else:
            k = c; n = l
        m[k] = m.get(k, 0) + n
        i += l
    return m
def sim(a, b):
    L = max(len(a), len(b))
    if L == 0: return 100
    ca, cb = chunks(a), chunks(b)
    s = sum(min(v, cb[k]) for k, v in ca.items() if k in cb)
    return min(100, s * 100 // L)
tot = bad = 0
MIRRORS = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
for d in sorted(os.listdir(MIRRORS)):
    r = f"{MIRRORS}/{d}/repo"
    if not os.path.isdir(r): continue
    out = subprocess.run(["git", "-C", r, "log", "-M", "--diff-filter=R", "--format=C %H", "--name-status", "-n", "300"], capture_output=True, text=True).stdout
    c = None; n = 0
    for line in out.splitlines():
        if line.startswith("C "): c = line[2:]; continue
        f = line.split("\t")
        if len(f) == 3 and f[0].startswith("R") and f[0] != "R100" and f[1].endswith(".py") and n < 15:
            n += 1
            a = subprocess.run(["git", "-C", r, "show", f"{c}~1:{f[1]}"], capture_output=True).stdout
            b = subprocess.run(["git", "-C", r, "show", f"{c}:{f[2]}"], capture_output=True).stdout
            got = sim(a, b); want = int(f[0][1:])
            tot += 1
            if got != want: bad += 1; print(d, f[0], got, f[1], f[2])
print("pairs", tot, "differ", bad)
