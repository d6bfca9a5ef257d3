//! The sanitiser against what the reference binary printed.

use super::*;
use serde_json::json;

/// Every rule run at every position, as before the anchors: what the
/// anchored `redact_text` must equal.
fn redact_every_position(s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for rule in RULES {
        chars = substitute(&chars, rule.kind, rule.matcher);
    }
    chars.into_iter().collect()
}

#[test]
fn anchors_skip_only_what_no_rule_matches() {
    let cases = [
        "app/agent.py:12",
        "Bearer sk-abcdefghijklmnopqrstu",
        "BEARER abcdefghijklmnop",
        "toKEN=abcdefghijklmnopqrstuvwxyz",
        "to\u{212a}en: 'abcdefghijklmnopqrstuvwxyz'",
        "postgres://user:pw@db.example.com/x",
        "eyJabc.def.ghi",
        "xoxb-1234567890abc",
        "whsec_abcdefghijklmnopqrst",
        "sk_live_abcdefghijklmnopqrst",
        "ghp_abcdefghijklmnopqrstuvwxyz",
        "AKIAABCDEFGHIJKLMNOP",
        "secret = [REDACTED:openai_api_key]",
        "api_key: sk-abcdefghijklmnopqrstuvwxyz0123",
        "plain words, no secret-shaped text at all",
        "é ü ß — unicode without anchors",
        "eyJa.b.c",
        "eyJa.b.",
        "BeArEr  abcdefghijklmnop",
        "PASSWORD = 'abcdefghijklmnopqrstuvwxyz'",
    ];
    for case in cases {
        assert_eq!(redact_text(case), redact_every_position(case), "{case:?}");
    }
}

#[test]
fn one_pass_finds_every_anchor_in_any_ascii_case() {
    for rule in RULES {
        for anchor in rule.anchors {
            for spelled in [
                anchor.to_string(),
                anchor.to_ascii_uppercase(),
                anchor.to_ascii_lowercase(),
            ] {
                let text = format!("x {spelled} y");
                assert!(any_rule_may_match(&text), "{text:?}");
            }
        }
    }
    for plain in [
        "app/agents/support.py:12",
        "lookup_order(order_id) -> dict",
        "",
    ] {
        assert!(!any_rule_may_match(plain), "{plain:?}");
        assert_eq!(redacted(plain), None);
    }
    // Past ASCII, `lower` knows more than ASCII case folding does.
    assert!(any_rule_may_match("to\u{212a}en: 'x'"));
    assert!(any_rule_may_match("café"));
}

#[test]
fn unchanged_strings_are_not_copied_and_changed_ones_are_said() {
    assert_eq!(redacted("plain words, no secret-shaped text at all"), None);
    // An anchor without a match: scanned, unchanged.
    assert_eq!(redacted("sk-short and a token"), None);
    assert_eq!(
        redacted("key sk-abcdefghijklmnopqrstu").as_deref(),
        Some("key [REDACTED:openai_api_key]")
    );
}

/// Input → expected output pairs observed from the reference binary.
fn check(cases: &[(&str, &str)]) {
    for (input, want) in cases {
        assert_eq!(redact_text(input), *want, "input {input:?}");
    }
}

#[test]
fn openai_api_key() {
    check(&[
        ("sk-abcdefghijklmnop", "[REDACTED:openai_api_key]"),
        ("sk-abcdefghijklmno", "sk-abcdefghijklmno"),
        ("xsk-abcdefghijklmnop", "xsk-abcdefghijklmnop"),
        ("9sk-abcdefghijklmnop", "9sk-abcdefghijklmnop"),
        ("_sk-abcdefghijklmnop", "_[REDACTED:openai_api_key]"),
        ("-sk-abcdefghijklmnop", "-[REDACTED:openai_api_key]"),
        ("ésk-abcdefghijklmnop", "é[REDACTED:openai_api_key]"),
        ("sk-abcdefghijklmnopé", "[REDACTED:openai_api_key]é"),
        ("sk-abcdefghijklmnop.x", "[REDACTED:openai_api_key].x"),
    ]);
}

#[test]
fn aws_access_key() {
    check(&[
        ("AKIAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
        ("ASIAABCDEFGHIJKLMNO1", "[REDACTED:aws_access_key]"),
        ("AGPAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
        ("AROAABCDEFGHIJKLMNOP", "[REDACTED:aws_access_key]"),
        ("AKIAABCDEFGHIJKLMNOP-", "[REDACTED:aws_access_key]-"),
        ("AKIAABCDEFGHIJKLMNOPQ", "AKIAABCDEFGHIJKLMNOPQ"),
        ("AKIAABCDEFGHIJKLMNOP_", "AKIAABCDEFGHIJKLMNOP_"),
        ("_AKIAABCDEFGHIJKLMNOP", "_AKIAABCDEFGHIJKLMNOP"),
        ("éAKIAABCDEFGHIJKLMNOP", "éAKIAABCDEFGHIJKLMNOP"),
        ("AKIAABCDEFGHIJKLMNOPé", "AKIAABCDEFGHIJKLMNOPé"),
        ("AKIAabcdefghijklmnop", "AKIAabcdefghijklmnop"),
    ]);
}

#[test]
fn github_token() {
    check(&[
        ("ghp_abcdefghijklmnopqrst", "[REDACTED:github_token]"),
        ("ghp_abcdefghijklmnopqrs", "ghp_abcdefghijklmnopqrs"),
        (
            "github_pat_abcdefghijklmnopqrstuv",
            "[REDACTED:github_token]",
        ),
        ("ghs_abcdefghij_lmnopqrstuvw-x", "[REDACTED:github_token]-x"),
        ("-ghp_abcdefghijklmnopqrst", "-[REDACTED:github_token]"),
        ("xghp_abcdefghijklmnopqrst", "xghp_abcdefghijklmnopqrst"),
        ("_ghp_abcdefghijklmnopqrst", "_ghp_abcdefghijklmnopqrst"),
        ("ghp_abcdefghijklmnopqrsté", "ghp_abcdefghijklmnopqrsté"),
        (
            "ghu_abcdefghijklmnopqrst ghr_abcdefghijklmnopqrst",
            "[REDACTED:github_token] [REDACTED:github_token]",
        ),
    ]);
}

#[test]
fn stripe_key() {
    check(&[
        ("sk_live_abcdefghijklmnop", "[REDACTED:stripe_key]"),
        ("rk_live_abcdefghijklmnop", "[REDACTED:stripe_key]"),
        ("pk_test_ABCDEFGH12345678", "[REDACTED:stripe_key]"),
        ("pk_live_abcdefghijklmnop-", "[REDACTED:stripe_key]-"),
        ("sk_test_abcdefghijklmno", "sk_test_abcdefghijklmno"),
        ("xsk_live_abcdefghijklmnop", "xsk_live_abcdefghijklmnop"),
        ("sk_live_abcdefghijklmnop_q", "sk_live_abcdefghijklmnop_q"),
        ("sk_live_abcdefghijklmnopé", "sk_live_abcdefghijklmnopé"),
        ("sk_prod_abcdefghijklmnop", "sk_prod_abcdefghijklmnop"),
    ]);
}

#[test]
fn stripe_webhook_secret() {
    check(&[
        ("whsec_abcdefghijklmnop", "[REDACTED:stripe_webhook_secret]"),
        (
            "whsec_abcdefghijklmnop-x",
            "[REDACTED:stripe_webhook_secret]-x",
        ),
        ("whsec_abcdefghijklmno", "whsec_abcdefghijklmno"),
        ("xwhsec_abcdefghijklmnop", "xwhsec_abcdefghijklmnop"),
        ("whsec_abcdefgh_ijklmnop", "whsec_abcdefgh_ijklmnop"),
        ("whsec_abcdefghijklmnop_", "whsec_abcdefghijklmnop_"),
    ]);
}

#[test]
fn slack_token() {
    check(&[
        ("xoxb-1234567890", "[REDACTED:slack_token]"),
        ("xoxp-12-34-56-78-90ab", "[REDACTED:slack_token]"),
        ("xoxb-123456789", "xoxb-123456789"),
        ("axoxb-1234567890", "axoxb-1234567890"),
        ("xoxb-1234567890_", "xoxb-1234567890_"),
        ("xoxc-1234567890", "xoxc-1234567890"),
        ("xoxb-1234567890-", "[REDACTED:slack_token]-"),
    ]);
}

#[test]
fn jwt() {
    check(&[
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc123",
            "[REDACTED:jwt]",
        ),
        ("eyJa.b.c", "[REDACTED:jwt]"),
        ("eyJa-_.b-_.c_-d", "[REDACTED:jwt]"),
        ("eyJa.b.c.d", "[REDACTED:jwt].d"),
        ("eyJa.b.c-", "[REDACTED:jwt]-"),
        ("-eyJa.b.c", "-[REDACTED:jwt]"),
        ("eyJ.b.c", "eyJ.b.c"),
        ("eyJa.b.", "eyJa.b."),
        ("eyJa..c", "eyJa..c"),
        ("eyJa.b=.c", "eyJa.b=.c"),
        ("eyJa.b.cé", "eyJa.b.cé"),
        ("_eyJa.b.c", "_eyJa.b.c"),
    ]);
}

#[test]
fn database_url() {
    check(&[
        (
            "postgres://user:pass@host:5432/db",
            "[REDACTED:database_url]",
        ),
        (
            "see postgresql://a:b@h/d now",
            "see [REDACTED:database_url] now",
        ),
        ("mongodb+srv://u:p@cluster/x", "[REDACTED:database_url]"),
        ("rediss://a:b@h", "[REDACTED:database_url]"),
        ("clickhouse://a:b@h", "[REDACTED:database_url]"),
        ("postgres://a:b/c@h", "[REDACTED:database_url]"),
        ("postgres://a:b@h@i", "[REDACTED:database_url]"),
        ("postgres://a\"b:c@h", "[REDACTED:database_url]"),
        ("postgres://a:b@h/d\"x", "[REDACTED:database_url]\"x"),
        ("postgres://a:b@h/d'x", "[REDACTED:database_url]'x"),
        ("postgres://a:b@h/d\tx", "[REDACTED:database_url]\tx"),
        ("postgres://a:b@h/d)x", "[REDACTED:database_url]"),
        ("redis://:pass@host", "redis://:pass@host"),
        ("mysql://u@host/db", "mysql://u@host/db"),
        ("http://u:p@host/x", "http://u:p@host/x"),
        ("POSTGRES://a:b@h/d", "POSTGRES://a:b@h/d"),
        ("xpostgres://a:b@h/d", "xpostgres://a:b@h/d"),
        ("postgres://a:@h", "postgres://a:@h"),
        ("postgres://a:b@", "postgres://a:b@"),
        ("postgres://a:b@\"h", "postgres://a:b@\"h"),
        ("postgres://a b:c@h", "postgres://a b:c@h"),
        ("postgres://a/b:c@h", "postgres://a/b:c@h"),
    ]);
}

#[test]
fn bearer_token() {
    check(&[
        ("Bearer abcdefghijkl", "[REDACTED:bearer_token]"),
        ("Bearer  abcdefghijkl", "[REDACTED:bearer_token]"),
        ("BEARER abc.def~ghi+jkl/==", "[REDACTED:bearer_token]/=="),
        ("Bearer abcdefghijkl==", "[REDACTED:bearer_token]=="),
        ("Bearer abcdefghijkl=x", "[REDACTED:bearer_token]"),
        ("Bearer abcdefghijkl_x", "[REDACTED:bearer_token]"),
        ("Bearer ===abcdefghijkl", "[REDACTED:bearer_token]"),
        ("-bearer abcdefghijkl", "-[REDACTED:bearer_token]"),
        ("bearer abcdefghijk", "bearer abcdefghijk"),
        ("Bearer abcdefghijk=", "Bearer abcdefghijk="),
        ("Bearer abcdefghijklé", "Bearer abcdefghijklé"),
        ("Bearer abcdefghijk:l", "Bearer abcdefghijk:l"),
        ("Bearer\tabcdefghijkl", "Bearer\tabcdefghijkl"),
        ("xbearer abcdefghijkl", "xbearer abcdefghijkl"),
        ("_bearer abcdefghijkl", "_bearer abcdefghijkl"),
        ("bearerabcdefghijkl", "bearerabcdefghijkl"),
    ]);
}

#[test]
fn labeled_secret_value() {
    check(&[
        (
            "password=abcdefghijklmnopqrst",
            "password=[REDACTED:labeled_secret_value]",
        ),
        (
            "password=abcdefghijklmnopqrs",
            "password=abcdefghijklmnopqrs",
        ),
        (
            "token: 'abcdefghijklmnopqrstuvwxyz'",
            "token: '[REDACTED:labeled_secret_value]'",
        ),
        (
            "API_KEY=abcdefghijklmnopqrstu",
            "API_KEY=[REDACTED:labeled_secret_value]",
        ),
        (
            "secret = abcdefghijklmnopqrstu",
            "secret = [REDACTED:labeled_secret_value]",
        ),
        (
            "mytoken=abcdefghijklmnopqrstu",
            "mytoken=[REDACTED:labeled_secret_value]",
        ),
        (
            "api-key:\"abcdefghijklmnopqrstu\"",
            "api-key:\"[REDACTED:labeled_secret_value]\"",
        ),
        (
            "password==abcdefghijklmnopqrst",
            "password=[REDACTED:labeled_secret_value]",
        ),
        (
            "password:=abcdefghijklmnopqrst",
            "password:[REDACTED:labeled_secret_value]",
        ),
        (
            "password=abcdefghijklmnopqrst!x",
            "password=[REDACTED:labeled_secret_value]!x",
        ),
        (
            "secret:\u{1f}abcdefghijklmnopqrst",
            "secret:\u{1f}[REDACTED:labeled_secret_value]",
        ),
        (
            "to\u{212a}en=abcdefghijklmnopqrst",
            "to\u{212a}en=[REDACTED:labeled_secret_value]",
        ),
        (
            "pas\u{17f}word=abcdefghijklmnopqrst",
            "pas\u{17f}word=abcdefghijklmnopqrst",
        ),
        (
            "password=\"abcdefghijklmnopqrst",
            "password=\"abcdefghijklmnopqrst",
        ),
        (
            "password='abcdefghijklmnopqrst\"",
            "password='abcdefghijklmnopqrst\"",
        ),
        (
            "password=''abcdefghijklmnopqrst''",
            "password=''abcdefghijklmnopqrst''",
        ),
        (
            "password = `abcdefghijklmnopqrst`",
            "password = `abcdefghijklmnopqrst`",
        ),
        (
            "secrets=abcdefghijklmnopqrstuv",
            "secrets=abcdefghijklmnopqrstuv",
        ),
        (
            "password=abcdefghij klmnopqrstuvwxyz",
            "password=abcdefghij klmnopqrstuvwxyz",
        ),
    ]);
}

#[test]
fn rules_apply_in_order() {
    check(&[
        (
            "Bearer sk-abcdefghijklmnopqr",
            "Bearer [REDACTED:openai_api_key]",
        ),
        ("Bearer eyJhbGciOiJ.eyJzdWIi.abc", "Bearer [REDACTED:jwt]"),
        (
            "Bearer ghp_abcdefghijklmnopqrst",
            "Bearer [REDACTED:github_token]",
        ),
        (
            "token=eyJa.b.cdefghijklmnopqrstuvwxyz",
            "token=[REDACTED:jwt]",
        ),
        (
            "token=postgres://u:p@hostabcdefghijklmnop",
            "token=[REDACTED:database_url]",
        ),
        (
            "password=Bearer abcdefghijklmnopqrst",
            "password=[REDACTED:bearer_token]",
        ),
        (
            "postgres://u:Bearer abcdefghijklmnop@h",
            "postgres://u:[REDACTED:bearer_token]@h",
        ),
    ]);
}

#[test]
fn markers_and_plain_text_pass() {
    check(&[
        ("[REDACTED:jwt]", "[REDACTED:jwt]"),
        ("x [REDACTED:jwt]", "x [REDACTED:jwt]"),
        (
            "lookup_order(order_id) -> dict",
            "lookup_order(order_id) -> dict",
        ),
        ("", ""),
    ]);
}

#[test]
fn the_normalising_buffer_holds_the_longest_sensitive_key() {
    let longest = SENSITIVE_KEYS.iter().map(|key| key.len()).max();
    assert_eq!(longest, Some(LONGEST_SENSITIVE_KEY));
    assert!(is_sensitive_key("Client-Secret"));
    assert!(is_sensitive_key("CLIENT_SECRET"));
    assert!(!is_sensitive_key("client_secrets"));
    assert!(!is_sensitive_key("max_tokens"));
    assert!(is_sensitive_key("--Pass-Word--"));
}

#[test]
fn sensitive_keys_hide_values_wholesale() {
    let mut v = json!({
        "input_schema": {"properties": {
            "api_key": {"type": "string"},
            "Client_Secret": {"type": "boolean"},
            "pässword": {"type": "string"},
            "max_tokens": {"type": "integer"},
            "To\u{212a}en": "kelvin"
        }, "required": ["api_key"]},
        "token": ["", "x", 3, null, "sk-abcdefghijklmnopqr", "[REDACTED:jwt]", "[REDACTED:bogus]"],
        "X-Api-Key": "plain"
    });
    sanitize(&mut v);
    let want = json!({
        "input_schema": {"properties": {
            "api_key": {"type": "[REDACTED:sensitive_field]"},
            "Client_Secret": {"type": "[REDACTED:sensitive_field]"},
            "pässword": {"type": "string"},
            "max_tokens": {"type": "integer"},
            "To\u{212a}en": "[REDACTED:sensitive_field]"
        }, "required": ["api_key"]},
        "token": ["", "[REDACTED:sensitive_field]", 3, null, "[REDACTED:openai_api_key]",
                  "[REDACTED:jwt]", "[REDACTED:sensitive_field]"],
        "X-Api-Key": "plain"
    });
    assert_eq!(v, want);
}

#[test]
fn keys_pass_the_substring_filter_in_place() {
    let mut v = json!({"a": 1, "sk_live_abcdefghijklmnop": {"type": "string"}, "z": 2});
    sanitize(&mut v);
    assert_eq!(
        super::super::pyjson::to_canonical_ascii(&v),
        "{\"[REDACTED:stripe_key]\":{\"type\":\"string\"},\"a\":1,\"z\":2}"
    );
    let keys: Vec<&String> = v
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["a", "[REDACTED:stripe_key]", "z"]);
}
