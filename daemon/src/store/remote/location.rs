//! Where the remote tier is: a URL, as OpenDAL's services read it
//! (`s3://bucket/prefix?region=…&endpoint=…`, `gcs://bucket/prefix`,
//! `azblob://container/prefix?account_name=…`, `redis://host:port/db/prefix`,
//! `ghac://`), with credentials from each backend's usual environment
//! variables. What is printed of it never holds a secret: user
//! information and every query value not known to be harmless are masked,
//! in the location and in any error that repeats them.

/// Query keys whose values are not secrets (the rest are masked).
const HARMLESS_KEYS: &[&str] = &[
    "endpoint",
    "region",
    "root",
    "db",
    "version",
    "bucket",
    "container",
    "account_name",
    "enable_virtual_host_style",
];

/// The schemes this build can reach.
pub(super) const SCHEMES: &[&str] = &["s3", "gcs", "azblob", "redis", "ghac"];

/// A remote cache's URL, and what must never be printed of it.
#[derive(Clone)]
pub struct RemoteLocation {
    url: String,
    /// The parts of the URL that are secrets, as written and decoded.
    secrets: Vec<String>,
    shown: String,
}

impl std::fmt::Debug for RemoteLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl RemoteLocation {
    /// Reads a URL; an unknown scheme or no scheme is refused with the
    /// schemes this build knows (`gs://` is read as `gcs://`).
    pub fn parse(url: &str) -> Result<RemoteLocation, String> {
        let url = url.trim();
        let Some((scheme, rest)) = url.split_once("://") else {
            return Err(format!(
                "a remote cache is a URL such as s3://bucket/prefix or redis://host:6379 (schemes: {})",
                SCHEMES.join(", ")
            ));
        };
        let scheme = scheme.to_ascii_lowercase();
        let scheme = if scheme == "gs" {
            "gcs".to_string()
        } else {
            scheme
        };
        let (before_query, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (authority, path) = match before_query.find('/') {
            Some(at) => before_query.split_at(at),
            None => (before_query, ""),
        };
        let mut secrets = Vec::new();
        let host = match authority.rsplit_once('@') {
            Some((userinfo, host)) => {
                secrets.push(userinfo.to_string());
                secrets.extend(userinfo.split(':').map(str::to_string));
                format!("***@{host}")
            }
            None => authority.to_string(),
        };
        let mut shown_query = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if HARMLESS_KEYS.contains(&name.to_ascii_lowercase().as_str()) {
                shown_query.push(pair.to_string());
            } else {
                secrets.push(value.to_string());
                secrets.push(percent_decoded(value));
                shown_query.push(format!("{name}=***"));
            }
        }
        secrets.retain(|secret| secret.len() >= 3);
        secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        secrets.dedup();
        let mut shown = format!("{scheme}://{host}{path}");
        if !shown_query.is_empty() {
            shown.push('?');
            shown.push_str(&shown_query.join("&"));
        }
        if !SCHEMES.contains(&scheme.as_str()) {
            return Err(format!(
                "{shown}: unknown remote cache scheme `{scheme}` (this build reaches {})",
                SCHEMES.join(", ")
            ));
        }
        Ok(RemoteLocation {
            url: format!("{scheme}://{rest}"),
            secrets,
            shown,
        })
    }

    /// The URL with its secrets masked: what `status` and errors show.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `text` with every secret of the URL masked.
    pub fn masked(&self, text: &str) -> String {
        let mut masked = text.replace(&self.url, &self.shown);
        for secret in &self.secrets {
            masked = masked.replace(secret.as_str(), "***");
        }
        masked
    }

    /// The OpenDAL operator of this location (built lazily: nothing is
    /// contacted until the first call).
    pub(super) fn operator(&self) -> Result<opendal::Operator, String> {
        // The services this build has, and the HTTP transport the
        // object stores use.
        opendal::install_default();
        opendal::Operator::from_uri(self.url.as_str())
            .map_err(|err| self.masked(&format!("{}: {err}", self.shown)))
    }
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| bytes.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                at += 3;
            }
            None => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_information_and_unknown_query_values_are_masked_everywhere() {
        let location = RemoteLocation::parse(
            "redis://cacheuser:hunter2secret@10.0.0.5:6379/0/ci?endpoint=redis://10.0.0.5:6379&token=abc%2Fdef",
        )
        .expect("a redis URL");
        assert_eq!(
            location.shown(),
            "redis://***@10.0.0.5:6379/0/ci?endpoint=redis://10.0.0.5:6379&token=***"
        );
        assert_eq!(
            location.masked("AUTH failed for hunter2secret (token abc/def, abc%2Fdef)"),
            "AUTH failed for *** (token ***, ***)"
        );
    }

    #[test]
    fn harmless_parts_are_shown_as_written_and_gs_is_gcs() {
        let location = RemoteLocation::parse(
            "s3://ci-cache/shipgate?region=eu-west-1&endpoint=http://127.0.0.1:9000",
        )
        .expect("an s3 URL");
        assert_eq!(
            location.shown(),
            "s3://ci-cache/shipgate?region=eu-west-1&endpoint=http://127.0.0.1:9000"
        );
        let gcs = RemoteLocation::parse("gs://bucket/prefix").expect("a gs URL");
        assert_eq!(gcs.shown(), "gcs://bucket/prefix");
    }

    #[test]
    fn a_url_without_a_known_scheme_is_refused_with_the_schemes_known() {
        let err = RemoteLocation::parse("ftp://user:pw123@host/x").expect_err("unknown scheme");
        assert!(err.contains("unknown remote cache scheme `ftp`"), "{err}");
        assert!(err.contains("s3, gcs, azblob, redis, ghac"), "{err}");
        assert!(!err.contains("pw123"), "{err}");
        let err = RemoteLocation::parse("not a url").expect_err("no scheme");
        assert!(err.contains("such as s3://bucket/prefix"), "{err}");
    }
}
