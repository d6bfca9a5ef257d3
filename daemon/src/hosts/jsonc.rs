//! JSON with comments and trailing commas (VS Code's `mcp.json`) made
//! plain JSON: `//` and `/* */` comments and a comma before `}` or `]`
//! are dropped outside strings; everything else is kept byte for byte, so
//! a string's content is never changed. One pass, no recursion.

/// `text` with its comments and trailing commas removed.
pub fn plain_json(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Where a comma was kept, to drop it if a closing bracket follows.
    let mut pending_comma: Option<usize> = None;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' => {
                pending_comma = None;
                let start = i;
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                out.push_str(text.get(start..i.min(bytes.len())).unwrap_or(""));
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                out.push(' ');
                continue;
            }
            b',' => {
                pending_comma = Some(out.len());
                out.push(',');
            }
            b'}' | b']' => {
                if let Some(at) = pending_comma.take() {
                    out.replace_range(at..at + 1, " ");
                }
                out.push(c as char);
            }
            c if c.is_ascii_whitespace() => out.push(c as char),
            _ => {
                pending_comma = None;
                // Copy the whole UTF-8 character.
                let width = text[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[i..i + width]);
                i += width;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::plain_json;

    #[test]
    fn comments_and_trailing_commas_go_strings_stay() {
        let text = "{\n  // servers\n  \"servers\": {\"a\": {\"url\": \"http://x/*y*/\", \"args\": [\"//z\",],},}, /* end */\n}";
        let value: serde_json::Value = serde_json::from_str(&plain_json(text)).expect("plain JSON");
        assert_eq!(value["servers"]["a"]["url"], "http://x/*y*/");
        assert_eq!(value["servers"]["a"]["args"][0], "//z");
        assert_eq!(plain_json("[\"é\", 1,]"), "[\"é\", 1 ]");
    }
}
