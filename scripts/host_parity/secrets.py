"""Secrets: every environment and header value a case plants is a fresh token minted here.

A leak is then a plain substring test: no planted token may appear in either tool's output."""

import string


SECRET_PREFIXES = ("sk-live-", "ghp_", "xoxb-", "glpat-", "AKIA", "sk-ant-api03-", "npm_")


class Secrets:
    """Mints unique secret-looking tokens for one case and remembers them."""

    def __init__(self, rng):
        self.rng = rng
        self.planted = []

    def new(self):
        alphabet = string.ascii_letters + string.digits
        body = "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(30, 40)))
        token = self.rng.choice(SECRET_PREFIXES) + body
        self.planted.append(token)
        return token
