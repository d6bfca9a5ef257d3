//! Scope derivation from generated sides.

use super::*;
use crate::python::extract_facts;

fn side(files: &[(&str, &str)]) -> SideFiles {
    SideFiles {
        modules: files
            .iter()
            .map(|(path, source)| {
                let blob = blake3::hash(source.as_bytes()).to_hex().to_string();
                (
                    path.to_string(),
                    blob,
                    Arc::new(extract_facts(source.as_bytes())),
                )
            })
            .collect(),
        ..SideFiles::default()
    }
}

const AGENT: &str =
    "from agents import Agent\nfrom .a import x\nsupport = Agent(name='s', tools=[x])\n";

#[test]
fn a_change_is_related_through_the_shortest_chain_within_six_hops() {
    // agent -> a -> b -> c -> d -> e -> f -> g: g is seven hops away.
    let mut files = vec![("app/__init__.py", ""), ("app/agent.py", AGENT)];
    let chain = ["a", "b", "c", "d", "e", "f", "g"];
    let sources: Vec<(String, String)> = chain
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let next = chain
                .get(i + 1)
                .map_or(String::new(), |n| format!("from .{n} import x\n"));
            (format!("app/{name}.py"), format!("{next}x = 1\n"))
        })
        .collect();
    files.extend(sources.iter().map(|(p, s)| (p.as_str(), s.as_str())));
    let base = side(&files);
    let mut changed_f = files.clone();
    let mut changed_g = files.clone();
    changed_f.retain(|(p, _)| *p != "app/f.py");
    changed_f.push(("app/f.py", "from .g import x\nx = 2\n"));
    let derived = derive(&base, &side(&changed_f));
    assert_eq!(derived.comparisons.len(), 1);
    assert_eq!(
        derived.comparisons[0].via,
        vec![
            "app/agent.py",
            "app/a.py",
            "app/b.py",
            "app/c.py",
            "app/d.py",
            "app/e.py",
            "app/f.py"
        ]
    );
    changed_g.retain(|(p, _)| *p != "app/g.py");
    changed_g.push(("app/g.py", "x = 2\n"));
    let derived = derive(&base, &side(&changed_g));
    assert!(derived.comparisons.is_empty());
    assert_eq!(
        derived.reason,
        "The change touches no OpenAI Agents SDK or Google ADK agent within the bounds read: app/g.py is not an agent file, and is not imported by one or importing one within 6 hops."
    );
}

#[test]
fn a_changed_input_never_read_is_named_with_why_not_as_no_agent_file() {
    let agent = "from agents import Agent\nsupport = Agent(name='s')\n";
    // Added past the bound: no side reads it.
    let base = side(&[("app/__init__.py", "")]);
    let mut head = side(&[("app/__init__.py", "")]);
    head.unread.push((
        "app/agent.py".into(),
        "big".into(),
        "it exceeds 2000000 bytes and is not read".into(),
    ));
    let derived = derive(&base, &head);
    assert!(derived.comparisons.is_empty());
    assert_eq!(
        derived.reason,
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: app/agent.py (it exceeds 2000000 bytes and is not read)."
    );
    // Grown past the bound: the base's agent file still selects its
    // scope, and the limit names why.
    let base = side(&[("app/__init__.py", ""), ("app/agent.py", agent)]);
    let derived = derive(&base, &head);
    assert_eq!(derived.comparisons.len(), 1);
    assert_eq!(
        derived.limits,
        vec!["Changed files are not related to a compared agent, so their effect is not compared: app/agent.py (it exceeds 2000000 bytes and is not read).".to_string()]
    );
    // A bumped submodule beside a changed file no agent relates to:
    // each named with its own why.
    let mut base = side(&[("app/agent.py", agent), ("tools/x.py", "x = 1\n")]);
    base.unread.push((
        "vendor/tools".into(),
        "1111".into(),
        "it is a submodule, whose content is not read".into(),
    ));
    let mut head = side(&[("app/agent.py", agent), ("tools/x.py", "x = 2\n")]);
    head.unread.push((
        "vendor/tools".into(),
        "2222".into(),
        "it is a submodule, whose content is not read".into(),
    ));
    let derived = derive(&base, &head);
    assert_eq!(
        derived.reason,
        "The change could not be related to an OpenAI Agents SDK or Google ADK agent: tools/x.py (no agent file imports it, and it imports no agent file within 6 hops); vendor/tools (it is a submodule, whose content is not read)."
    );
}

#[test]
fn nested_scopes_collapse_into_the_outermost() {
    let files = [
        ("app/__init__.py", ""),
        (
            "app/agent.py",
            "from agents import Agent\nsupport = Agent(name='s')\n",
        ),
        ("app/sub/__init__.py", ""),
        (
            "app/sub/agent.py",
            "from agents import Agent\nhelper = Agent(name='h')\n",
        ),
    ];
    let base = side(&files);
    let head = side(&[
        ("app/__init__.py", ""),
        (
            "app/agent.py",
            "from agents import Agent\nsupport = Agent(name='s2')\n",
        ),
        ("app/sub/__init__.py", ""),
        (
            "app/sub/agent.py",
            "from agents import Agent\nhelper = Agent(name='h2')\n",
        ),
    ]);
    let derived = derive(&base, &head);
    let scopes: Vec<&str> = derived
        .comparisons
        .iter()
        .map(|r| r.scope.as_str())
        .collect();
    assert_eq!(scopes, vec!["app"]);
    assert_eq!(
        derived.comparisons[0].changed,
        vec!["app/agent.py", "app/sub/agent.py"]
    );
}
