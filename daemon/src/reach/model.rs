//! What a bound tool reaches, as cached data (contract §2.8, spec "What a
//! bound tool reaches" and "… beyond HTTP"). Paths are scope-relative; the
//! document roots them.

use serde::{Deserialize, Serialize};

/// Everything the tool's own code and its helpers reach.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Reach {
    pub calls: Vec<HttpCall>,
    /// Effects beyond HTTP, through a recognised library.
    pub effects: Vec<LibraryEffect>,
    pub limits: Vec<ReachLimit>,
    /// Limits past the listed ones (they still keep the tool from reading).
    pub more_limits: usize,
    /// Where the tool is defined: the place a `read` claim names.
    pub defined_at: Place,
}

/// `file:line`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Place {
    pub path: String,
    pub line: u32,
}

/// One helper call on the way from the tool to a call: where it is made
/// and the helper's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hop {
    pub at: Place,
    pub name: String,
}

/// An outbound HTTP call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HttpCall {
    pub library: String,
    /// `None` when the method is not a literal.
    pub method: Option<String>,
    /// The URL template: literal text, `{param}`, `{env NAME}`, `{…}`.
    pub url: String,
    /// `query`, `mutation` or `unknown`, for a GraphQL endpoint.
    pub graphql: Option<String>,
    pub at: Place,
    pub via: Vec<Hop>,
    pub fields: Vec<Field>,
    pub credentials: Vec<Credential>,
    /// `(param, into)`, sorted by param.
    pub model_supplied: Vec<(String, String)>,
}

impl HttpCall {
    /// `read`, `write` or `destructive`; `None` when the method is unread.
    pub fn effect(&self) -> Option<&'static str> {
        match self.graphql.as_deref() {
            Some("query") => return Some("read"),
            Some("mutation") => return Some("write"),
            // A document that is not a literal supports no effect.
            Some("unknown") => return None,
            _ => {}
        }
        let method = self.method.as_deref()?;
        strongest(method.split('|').map(super::libraries::http_effect))
    }
}

/// One request field (`json=`/`data=` key, or the whole body).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Field {
    pub name: Option<String>,
    pub fact: FieldFact,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FieldFact {
    /// A printable literal: a number, a boolean or a word without digits.
    Value(Printable),
    /// Chosen from literals, decided by these parameters.
    Values {
        values: Vec<String>,
        decided_by: Vec<String>,
    },
    /// A literal that is not printed.
    Literal,
    /// Made from parameters and environment variables.
    Made {
        from: Vec<String>,
        env: Vec<String>,
    },
    Computed,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Printable {
    Str(String),
    Number(String),
    Bool(bool),
}

/// Where a credential goes and what it is made from, by name only.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Credential {
    /// `header`, `auth`, `query`, `field`, `userinfo` or `keyword`.
    pub kind: String,
    pub name: Option<String>,
    pub env: Vec<String>,
    pub from: Vec<String>,
    /// A hard-coded value or a literal default; never printed.
    pub literal: bool,
}

/// An effect through a recognised library (database, process, filesystem,
/// cloud, messaging).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LibraryEffect {
    pub family: String,
    /// `read`, `write`, `execute` or `unknown`.
    pub operation: String,
    pub library: String,
    /// The function, or the object's role and method (`cursor.execute`).
    pub call: String,
    pub at: Place,
    pub via: Vec<Hop>,
    /// A program's file name, a table, bucket or key, or a relative path.
    pub target: Option<String>,
    /// A SQL statement's leading keyword (never the statement).
    pub statement: Option<String>,
    /// Digest of the statement, a command's arguments or a withheld target.
    pub value_sha256: Option<String>,
    pub service: Option<String>,
    pub host: Option<String>,
    pub credentials: Vec<Credential>,
    pub model_supplied: Vec<(String, String)>,
}

impl LibraryEffect {
    /// The claim the effect supports, if any.
    pub fn claim(&self) -> Option<&'static str> {
        match (self.family.as_str(), self.operation.as_str()) {
            (_, "execute") => Some("code_execution"),
            ("messaging", "write") => Some("external_communication"),
            (_, "write") => Some("write"),
            _ => None,
        }
    }
}

/// A call the read did not follow, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReachLimit {
    pub at: Place,
    pub why: String,
}

/// One effect claim, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// `read`, `write`, `destructive`, `code_execution`,
    /// `external_communication`.
    pub value: &'static str,
    /// `source_http_call` or `source_library_call`.
    pub source: &'static str,
    pub at: Place,
    pub method: Option<String>,
    pub url: Option<String>,
    pub graphql: Option<String>,
    /// For a read claim: how many calls were read.
    pub calls: usize,
}

impl Reach {
    /// The effect claims the reach supports: one per distinct writing call,
    /// and a read claim only when everything reached reads and nothing
    /// was left unread.
    pub fn claims(&self) -> Vec<Claim> {
        let mut claims: Vec<Claim> = Vec::new();
        for call in &self.calls {
            let Some(effect) = call.effect().filter(|e| *e != "read") else {
                continue;
            };
            let duplicate = claims.iter().any(|c| {
                c.value == effect && c.method == call.method && c.url.as_deref() == Some(&call.url)
            });
            if !duplicate {
                claims.push(Claim {
                    value: effect,
                    source: "source_http_call",
                    at: call.at.clone(),
                    method: call.method.clone(),
                    url: Some(call.url.clone()),
                    graphql: call.graphql.clone(),
                    calls: 0,
                });
            }
        }
        for effect in &self.effects {
            if let Some(value) = effect.claim() {
                if !claims.iter().any(|c| c.value == value && c.at == effect.at) {
                    claims.push(Claim {
                        value,
                        source: "source_library_call",
                        at: effect.at.clone(),
                        method: None,
                        url: None,
                        graphql: None,
                        calls: 0,
                    });
                }
            }
        }
        let reached = self.calls.len() + self.effects.len();
        let all_read = self.calls.iter().all(|c| c.effect() == Some("read"))
            && self.effects.iter().all(|e| e.operation == "read");
        if claims.is_empty()
            && reached > 0
            && all_read
            && self.limits.is_empty()
            && self.more_limits == 0
        {
            claims.push(Claim {
                value: "read",
                source: if self.calls.is_empty() {
                    "source_library_call"
                } else {
                    "source_http_call"
                },
                at: self.defined_at.clone(),
                method: None,
                url: None,
                graphql: None,
                calls: reached,
            });
        }
        claims
    }

    /// `reach.effect`: the strongest claim, on the read/write/destructive
    /// scale (running a process or sending a message writes).
    pub fn effect(&self) -> Option<&'static str> {
        strongest(self.claims().iter().map(|c| c.value))
    }
}

/// The strongest of the claims: destructive > write > read.
pub fn strongest<'c>(claims: impl Iterator<Item = &'c str>) -> Option<&'static str> {
    let rank = |c: &str| match c {
        "destructive" => 3,
        "read" => 1,
        _ => 2,
    };
    claims.max_by_key(|c| rank(c)).map(|c| match rank(c) {
        3 => "destructive",
        1 => "read",
        _ => "write",
    })
}
