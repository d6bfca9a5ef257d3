//! The error vocabulary the daemon and its clients share. A failed call is
//! a gRPC status in the standard rich error model: a `google.rpc.Status`
//! detail holding one `google.rpc.ErrorInfo` whose domain is [`DOMAIN`],
//! whose reason is a [`Reason`], and whose metadata carries the contract's
//! error kind ([`KIND_KEY`]) and, for an error about one request field, the
//! field's name ([`FIELD_KEY`]) and its value ([`VALUE_KEY`]).
//!
//! The status message speaks the API's language: it names request fields
//! (`base`), never a command-line flag (`--base`), since a gRPC caller has
//! no flags. The command-line wording — `Invalid value for --base: …`, and
//! the hint a few reasons add (`Pass --scope too.`) — is made here, from the
//! report, by both binaries that print it (`shipgate-client` and the
//! one-shot `shipgate-daemon diff`), so they print the same line.

/// `ErrorInfo.domain` of every shipgate error.
pub const DOMAIN: &str = "shipgate.dev";

/// `ErrorInfo.metadata` key: the output contract's error kind
/// ([`ErrorKind::as_str`]).
pub const KIND_KEY: &str = "errorKind";

/// `ErrorInfo.metadata` key: the request field the error is about, by its
/// name in `shipgate.proto` (`base`, `base_scope`).
pub const FIELD_KEY: &str = "field";

/// `ErrorInfo.metadata` key: what that field held (cut at [`VALUE_BYTES`]).
pub const VALUE_KEY: &str = "value";

/// The longest value echoed in the metadata: the whole status travels in
/// one HTTP/2 header block, which stock clients bound (grpcio at 8 KiB).
pub const VALUE_BYTES: usize = 256;

/// The request fields errors name, as `shipgate.proto` spells them.
pub mod field {
    pub const WORKSPACE: &str = "workspace";
    pub const BASE: &str = "base";
    pub const HEAD: &str = "head";
    pub const SCOPE: &str = "scope";
    pub const BASE_SCOPE: &str = "base_scope";
    pub const MAX_PYTHON_FILES: &str = "max_python_files";
    pub const SINCE: &str = "since";
    pub const UNTIL: &str = "until";
    pub const AT: &str = "at";
    pub const AGENT: &str = "agent";
    pub const WORKTREE: &str = "worktree";
    pub const STAGED: &str = "staged";
    pub const FAIL_ON: &str = "fail_on";
    pub const POLICY: &str = "policy";
    pub const FORMAT: &str = "format";
}

/// The output contract's error kinds (its §1.3), which decide the exit code
/// (2 for all but `Internal`) and the agent-mode line's `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A bad value or combination of values.
    Usage,
    /// The inputs cannot be read as asked (`config_error`).
    Config,
    /// A partial clone lacks objects the comparison needs.
    ObjectsMissing,
    /// A failure of shipgate's own.
    Internal,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Usage => "usage",
            ErrorKind::Config => "config_error",
            ErrorKind::ObjectsMissing => "objects_missing",
            ErrorKind::Internal => "internal",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            ErrorKind::Usage,
            ErrorKind::Config,
            ErrorKind::ObjectsMissing,
            ErrorKind::Internal,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// Declares [`Reason`] with each variant's `ErrorInfo.reason` spelling.
macro_rules! reasons {
    ($($(#[$doc:meta])* $variant:ident = $text:literal,)*) => {
        /// Why a call failed: `ErrorInfo.reason`, UPPER_SNAKE_CASE as the
        /// rich error model asks. New reasons may appear; a client treats
        /// one it does not know by the status code alone.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Reason {
            $($(#[$doc])* $variant,)*
        }

        impl Reason {
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Reason::$variant => $text,)*
                }
            }
        }
    };
}

reasons! {
    /// A ref that names no commit, or is empty or starts with a dash
    /// (`base`, `head`, `since`, `until`).
    BadRevision = "BAD_REVISION",
    /// No `base` was given and none could be detected.
    NoDefaultBase = "NO_DEFAULT_BASE",
    /// The base and the head share no history.
    NoMergeBase = "NO_MERGE_BASE",
    /// A scope that is not a repository-relative directory without `..`.
    BadScope = "BAD_SCOPE",
    /// `base_scope` without `scope`.
    BaseScopeWithoutScope = "BASE_SCOPE_WITHOUT_SCOPE",
    /// A history's scope is absent (or not a directory) at `until`.
    ScopeNotAtRevision = "SCOPE_NOT_AT_REVISION",
    /// A history's `agent` that no commit read builds.
    UnknownAgent = "UNKNOWN_AGENT",
    /// The command line's `--application` is missing (its own check, made
    /// before any request: the API compares applications only).
    ApplicationRequired = "APPLICATION_REQUIRED",
    /// An output format this daemon does not render (a newer client's),
    /// or `--json` beside another `--format` (the command line's own check).
    BadFormat = "BAD_FORMAT",
    /// A bound below its minimum (`max_python_files`).
    BadLimit = "BAD_LIMIT",
    /// A string field longer than `MAX_FIELD_BYTES`; its value is not echoed.
    FieldTooLong = "FIELD_TOO_LONG",
    /// A required field left empty (`workspace`).
    MissingField = "MISSING_FIELD",
    /// A request the daemon could not decode as the method's message: bytes
    /// that are not its protobuf (a string field that is not UTF-8), a
    /// frame cut short, or no message at all.
    MalformedRequest = "MALFORMED_REQUEST",
    /// A relative `workspace`: the daemon does not share the caller's
    /// working directory.
    RelativeWorkspace = "RELATIVE_WORKSPACE",
    /// The workspace path does not exist.
    WorkspaceNotFound = "WORKSPACE_NOT_FOUND",
    /// The workspace path cannot be read (permissions).
    WorkspaceUnreadable = "WORKSPACE_UNREADABLE",
    /// The workspace path is a file.
    WorkspaceNotADirectory = "WORKSPACE_NOT_A_DIRECTORY",
    /// No git repository holds the workspace.
    NotARepository = "NOT_A_REPOSITORY",
    /// A repository of an object format shipgate does not read (SHA-256).
    UnsupportedObjectFormat = "UNSUPPORTED_OBJECT_FORMAT",
    /// The repository's git configuration cannot be read.
    BadGitConfig = "BAD_GIT_CONFIG",
    /// The repository cannot be opened for another reason.
    RepositoryUnreadable = "REPOSITORY_UNREADABLE",
    /// A shallow clone lacks the history asked for.
    ShallowCheckout = "SHALLOW_CHECKOUT",
    /// Neither compared tree holds the selected scopes.
    ScopeNotFound = "SCOPE_NOT_FOUND",
    /// The selected scope is a file, not a directory.
    ScopeNotADirectory = "SCOPE_NOT_A_DIRECTORY",
    /// A tree of the repository is malformed or cannot be looked into.
    TreeUnreadable = "TREE_UNREADABLE",
    /// A partial clone lacks objects the comparison needs.
    ObjectsMissing = "OBJECTS_MISSING",
    /// The working tree could not be taken as a commit (a bare repository,
    /// no `HEAD` commit, git missing or failing).
    WorktreeUnreadable = "WORKTREE_UNREADABLE",
    /// `worktree` with a head other than `HEAD`: the working tree is the head.
    WorktreeWithHead = "WORKTREE_WITH_HEAD",
    /// `staged` and `worktree` together: each names another head.
    StagedWithWorktree = "STAGED_WITH_WORKTREE",
    /// A policy that cannot be applied: an unknown condition, a policy file
    /// that is not TOML, or whose `[policy]` table holds an unknown key or a
    /// bad value.
    BadPolicy = "BAD_POLICY",
    /// A host-grants baseline (`audit --host --drift`) that is missing, is
    /// not JSON, or was not recorded by this reader.
    BadBaseline = "BAD_BASELINE",
    /// `history --host NAME` naming no host shipgate reads.
    UnknownHost = "UNKNOWN_HOST",
    /// A repository that cannot be watched (or unwatched).
    WatchFailed = "WATCH_FAILED",
    /// A `shipgate.v1` call over TCP without the daemon's bearer token, or
    /// with another one.
    BadToken = "BAD_TOKEN",
    /// The daemon is stopping and takes no more work.
    Stopping = "STOPPING",
    /// The request did not finish within its deadline: the client's
    /// `grpc-timeout`, else the daemon's `--request-timeout`.
    DeadlineExceeded = "DEADLINE_EXCEEDED",
    /// A failure of shipgate's own (a bug, a thread that could not start).
    Internal = "INTERNAL",
}

impl Reason {
    pub fn parse(text: &str) -> Option<Self> {
        Reason::ALL
            .iter()
            .copied()
            .find(|reason| reason.as_str() == text)
    }

    /// What a command line adds after the message: the flags to use, which
    /// the status message cannot name.
    fn cli_hint(self) -> Option<&'static str> {
        match self {
            Reason::NoDefaultBase => Some("Pass --base <ref> explicitly."),
            Reason::BaseScopeWithoutScope => Some("Pass --scope too."),
            Reason::ScopeNotAtRevision => {
                Some("Pass a directory that exists there, or an --until commit that has it.")
            }
            Reason::ScopeNotFound => Some("Check --scope/--base-scope."),
            _ => None,
        }
    }
}

/// The command-line flag of a request field: `base_scope` → `--base-scope`.
pub fn flag_of(field: &str) -> String {
    format!("--{}", field.replace('_', "-"))
}

/// A failed call as a command line reads it: the kind, the reason when the
/// daemon sent one it knows, the field it is about, the status message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorReport {
    pub kind: ErrorKind,
    pub reason: Option<Reason>,
    pub field: Option<String>,
    pub message: String,
}

impl ErrorReport {
    /// The message with its reason's command-line hint: the bare text the
    /// agent-mode line carries.
    pub fn cli_message(&self) -> String {
        match self.reason.and_then(Reason::cli_hint) {
            Some(hint) => format!("{} {hint}", self.message),
            None => self.message.clone(),
        }
    }

    /// The one human line a command line prints on stderr: usage errors
    /// name the flag of their field (`Error: Invalid value for --base: …`).
    pub fn cli_line(&self) -> String {
        let message = self.cli_message();
        match self.kind {
            ErrorKind::Usage => match &self.field {
                Some(field) => format!("Error: Invalid value for {}: {message}", flag_of(field)),
                None => format!("Error: Invalid value: {message}"),
            },
            // The shallow-clone refusal is a whole instruction of its own.
            ErrorKind::Config if self.reason == Some(Reason::ShallowCheckout) => message,
            ErrorKind::Config => {
                format!("Application comparison could not read its inputs: {message}")
            }
            ErrorKind::ObjectsMissing => message,
            ErrorKind::Internal => format!("shipgate internal error: {message}"),
        }
    }
}

/// `value` cut to at most [`VALUE_BYTES`] on a character boundary, with `…`
/// when it was cut.
pub fn bounded_value(value: &str) -> String {
    if value.len() <= VALUE_BYTES {
        return value.to_string();
    }
    let mut end = VALUE_BYTES;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &value[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_parses_back_from_its_spelling() {
        for reason in Reason::ALL {
            assert_eq!(Reason::parse(reason.as_str()), Some(*reason));
            assert!(reason
                .as_str()
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_'));
        }
        assert_eq!(Reason::parse("NO_SUCH_REASON"), None);
    }

    #[test]
    fn the_command_line_adds_the_flags_the_message_does_not_name() {
        let report = ErrorReport {
            kind: ErrorKind::Usage,
            reason: Some(Reason::NoDefaultBase),
            field: Some(field::BASE.to_string()),
            message: "No base ref could be detected.".to_string(),
        };
        assert_eq!(
            report.cli_line(),
            "Error: Invalid value for --base: No base ref could be detected. Pass --base <ref> explicitly."
        );
        let config = ErrorReport {
            kind: ErrorKind::Config,
            reason: Some(Reason::ScopeNotFound),
            field: None,
            message: "Neither comparison tree contains the selected scopes: base='x', head='x'."
                .to_string(),
        };
        assert_eq!(
            config.cli_message(),
            "Neither comparison tree contains the selected scopes: base='x', head='x'. Check --scope/--base-scope."
        );
        assert_eq!(flag_of(field::BASE_SCOPE), "--base-scope");
    }

    #[test]
    fn an_echoed_value_is_bounded_on_a_character_boundary() {
        assert_eq!(bounded_value("main"), "main");
        let long = "é".repeat(VALUE_BYTES);
        let cut = bounded_value(&long);
        assert!(cut.len() <= VALUE_BYTES + '…'.len_utf8());
        assert!(cut.ends_with('…'));
    }
}
