//! Agent mode (contract §1.4): when a coding agent runs the command, a
//! refusal adds one JSON line on stderr after the human line, so the agent
//! can act on it without parsing prose.

/// On when `AGENTS_SHIPGATE_AGENT_MODE` is `1/true/yes/on`, off when it is
/// `0/false/no/off`, otherwise on when `CLAUDECODE` or `CURSOR_TRACE_ID` is
/// set and non-empty.
pub fn enabled() -> bool {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match env("AGENTS_SHIPGATE_AGENT_MODE")
        .map(|v| v.to_ascii_lowercase())
        .as_deref()
    {
        Some("1" | "true" | "yes" | "on") => true,
        Some("0" | "false" | "no" | "off") => false,
        _ => env("CLAUDECODE").is_some() || env("CURSOR_TRACE_ID").is_some(),
    }
}

/// `{"error": …, "message": …, "exit_code": 2, "command": …}` with Python's
/// default separators and ASCII escaping; `command` is this invocation
/// re-spelled with POSIX shell quoting.
pub fn error_line(kind: &str, message: &str) -> String {
    let command: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, arg)| {
            if i == 0 {
                "shipgate-client".to_string()
            } else {
                shell_quote(&arg)
            }
        })
        .collect();
    format!(
        "{{\"error\": {}, \"message\": {}, \"exit_code\": 2, \"command\": {}}}",
        json_ascii(kind),
        json_ascii(message),
        json_ascii(&command.join(" "))
    )
}

/// Python's `shlex.quote`.
fn shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\"'\"'"))
    }
}

/// A JSON string literal as Python's `json.dumps` writes it by default.
fn json_ascii(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || !c.is_ascii() => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_escaping_follow_python() {
        assert_eq!(shell_quote("HEAD~1"), "'HEAD~1'");
        assert_eq!(shell_quote("nothere"), "nothere");
        assert_eq!(shell_quote("it's"), "'it'\"'\"'s'");
        assert_eq!(json_ascii("a — b\n\"c\""), "\"a \\u2014 b\\n\\\"c\\\"\"");
        assert_eq!(json_ascii("😀"), "\"\\ud83d\\ude00\"");
    }
}
