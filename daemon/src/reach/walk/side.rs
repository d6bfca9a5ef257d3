//! What one side's reach read shares across its tools: the memo of what
//! each helper frame reaches, read once per binding of its parameters, and
//! the work budget, whose exhaustion is a named limit, never a crash and
//! never silence.

use super::collector::Recorded;
use std::collections::HashMap;
use std::rc::Rc;

/// Calls, effects and limits of a helper's remembered reach taken in per
/// step of the budget.
pub(super) const TAKEN_PER_STEP: usize = 32;

/// What one side's reach read shares across its tools: what each helper
/// frame reaches, and the work budget.
///
/// The memo's rule: a helper frame's read is a function of what the key
/// writes, and of nothing else. The key is the frame's
/// [`Frame::memo_key`] (the function, what each parameter holds and each
/// argument is bound to, read where it was written), the helper depth
/// where it matters (at most [`MAX_HELPER_DEPTH`]: the only test of depth
/// is whether it has reached the bound) and the recursion generation
/// (`Frame::recursion`). Nothing else on the way there is consulted: a
/// recursive call is one of a function to itself, read from the frame's
/// own function and generation, not from the path; the `via` is only
/// recorded (relative to the frame, and rooted again where it is taken
/// in); a frame collects what it finds afresh, so what was found before it
/// is never consulted, only added to. So the same key reads the same
/// wherever it is called from, and is read once. The one exception is the
/// budget: a read it cuts short keeps the limit that says so, and is
/// remembered with it. No key can be reached again while it is read: a
/// call goes one helper deeper (the depth in the key grows until the
/// bound, past which only a function's calls of itself are followed, and
/// those raise the generation).
///
/// [`Frame::memo_key`]: crate::reach::Frame::memo_key
/// [`MAX_HELPER_DEPTH`]: crate::reach::MAX_HELPER_DEPTH
pub struct Side {
    pub(super) memo: HashMap<String, Rc<Recorded>>,
    /// Keys being read, outermost first (guards the rule above).
    pub(super) reading: Vec<String>,
    pub(super) budget: usize,
    steps: usize,
}

impl Side {
    pub fn new(budget: usize) -> Self {
        Side {
            memo: HashMap::new(),
            reading: Vec::new(),
            budget,
            steps: 0,
        }
    }

    /// Takes one step and `more`; `false` once the budget is spent.
    pub(super) fn step(&mut self, more: usize) -> bool {
        if self.steps >= self.budget {
            return false;
        }
        self.steps = self.steps.saturating_add(1).saturating_add(more);
        true
    }
}

/// The limit where reading stopped because the side's work budget was
/// spent.
pub fn budget_spent(budget: usize) -> String {
    format!(
        "reading stopped: the work budget of {} steps for this side was spent (helpers fan out too widely); what follows is not read",
        thousands(budget)
    )
}

/// `200000` as `200,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::extract_facts;
    use crate::reach::{tool_reach_within, Census, Reach};
    use crate::resolve::{ModuleSet, ScopeContext};

    const SOURCE: &str = r#"import requests
from agents import function_tool


def fetch(x):
    return requests.get(f"https://api.example.com/{x}")


def both(x):
    fetch(x)
    fetch(x)


@function_tool
def tool(q: str) -> str:
    both(q)
    both(q)
    fetch("fixed")
    return "ok"
"#;

    fn read(budget: usize) -> Reach {
        let facts = extract_facts(SOURCE.as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new(
            std::iter::once(("app/agent.py", &facts)),
            std::iter::empty(),
            &context,
        );
        let census = Census::of(&modules);
        let line = facts
            .functions
            .iter()
            .find(|f| f.name == "tool")
            .map(|f| f.line);
        line.and_then(|line| tool_reach_within(&modules, &census, budget, "app/agent.py", line))
            .unwrap_or_default()
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    /// A call reached by several ways is one call, by the first way; one
    /// with another binding is another call.
    #[test]
    fn a_helper_called_again_with_the_same_binding_adds_nothing() {
        let reach = read(1_000);
        let found: Vec<(&str, Vec<&str>)> = reach
            .calls
            .iter()
            .map(|c| {
                (
                    c.url.as_str(),
                    c.via.iter().map(|h| h.name.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("https://api.example.com/{q}", vec!["both", "fetch"]),
                ("https://api.example.com/fixed", vec!["fetch"]),
            ]
        );
        assert!(reach.limits.is_empty(), "{:?}", reach.limits);
    }

    /// Functions calling each other count against the helper bound (only
    /// a function's calls of itself are recursion, which is read from the
    /// frame, not the way there), so the read ends in a named limit.
    #[test]
    fn mutual_recursion_ends_at_the_helper_bound() {
        let source = r#"import requests
from agents import function_tool


def ping(x):
    pong(x)
    return requests.get(f"https://api.example.com/ping/{x}")


def pong(x):
    ping(x)
    return requests.get("https://api.example.com/pong")


@function_tool
def tool(q: str) -> str:
    ping(q)
    return "ok"
"#;
        let facts = extract_facts(source.as_bytes());
        let context = ScopeContext::default();
        let modules = ModuleSet::new(
            std::iter::once(("app/agent.py", &facts)),
            std::iter::empty(),
            &context,
        );
        let census = Census::of(&modules);
        let reach = facts
            .functions
            .iter()
            .find(|f| f.name == "tool")
            .and_then(|f| tool_reach_within(&modules, &census, 1_000, "app/agent.py", f.line))
            .unwrap_or_default();
        let urls: Vec<&str> = reach.calls.iter().map(|c| c.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://api.example.com/ping/{q}",
                "https://api.example.com/pong"
            ]
        );
        let whys: Vec<&str> = reach.limits.iter().map(|l| l.why.as_str()).collect();
        assert_eq!(
            whys,
            ["calls pong, more than 3 helper calls from the tool; not read"]
        );
    }

    /// Past the budget, reading stops where it is, and the limit says so
    /// first.
    #[test]
    fn a_spent_budget_is_the_first_limit() {
        let reach = read(3);
        assert_eq!(
            reach.limits.first().map(|l| l.why.as_str()),
            Some(budget_spent(3).as_str())
        );
        assert!(budget_spent(200_000).contains("200,000 steps"));
    }
}
