//! Applications with known bindings: `scripts/known_truth.py` draws
//! random OpenAI Agents SDK and Google ADK applications from seeds, in
//! shapes from its catalogue, edits them (binding edits and edits that
//! change nothing), runs `shipgate-daemon diff --application` on the two
//! commits and holds the rows against the truth it knows from the model:
//! (a) every established row is a true change of that kind, (b) every true
//! change is a row or is covered by a named limit on its agent, (c) a
//! binding with no true change has no established row. A failing seed is
//! shrunk and printed (both programs, the violated property, the row).
//!
//! This runs the first seeds of the default catalogue (shapes marked
//! `known_wrong` excluded), a few seconds in a debug build; run the script
//! with `--minutes M` for a longer search.

mod support;

use std::path::Path;
use std::process::Command;

/// Programs to try: small enough for a debug build to finish in seconds.
const COUNT: &str = "30";

#[test]
fn generated_applications_answer_what_their_models_know() {
    let (daemon, _) = support::binaries();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/known_truth.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(["--seed", "1", "--count", COUNT, "--daemon"])
        .arg(daemon)
        .output()
        .expect("python3 runs scripts/known_truth.py");
    assert!(
        output.status.success(),
        "scripts/known_truth.py --seed 1 --count {COUNT} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
