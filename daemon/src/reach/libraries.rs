//! What a library call is, by its absolute imported name (`requests.post`,
//! `subprocess.run`), never by a name alone: the HTTP functions and
//! clients, the recognised effect families, and the calls the read passes
//! over because they have no effect outside the process.

/// An HTTP function of a library: `(library, method)`; the method is
/// `None` for `request(method, url)`.
pub fn http_function(name: &str) -> Option<(&'static str, Option<&'static str>)> {
    let (library, function) = name.rsplit_once('.')?;
    let library = match library {
        "requests" => "requests",
        "httpx" => "httpx",
        _ => return None,
    };
    let method = match function {
        "request" => None,
        other => Some(http_verb(other)?),
    };
    Some((library, method))
}

/// `get` → `GET`, for the methods a client or library function names.
pub fn http_verb(method: &str) -> Option<&'static str> {
    Some(match method {
        "get" => "GET",
        "post" => "POST",
        "put" => "PUT",
        "patch" => "PATCH",
        "delete" => "DELETE",
        "head" => "HEAD",
        "options" => "OPTIONS",
        _ => return None,
    })
}

/// A client class a function may build and call through:
/// `(library, base_url keyword)`.
pub fn http_client(name: &str) -> Option<&'static str> {
    Some(match name {
        "requests.Session" | "requests.session" | "requests.sessions.Session" => "requests",
        "httpx.Client" | "httpx.AsyncClient" => "httpx",
        "aiohttp.ClientSession" => "aiohttp",
        _ => return None,
    })
}

/// What an HTTP method does.
pub fn http_effect(method: &str) -> &'static str {
    match method {
        "GET" | "HEAD" | "OPTIONS" => "read",
        "DELETE" => "destructive",
        _ => "write",
    }
}

/// A process started by a library function: `(library, call)`.
pub fn process_function(name: &str) -> Option<&'static str> {
    let library = match name {
        "subprocess.run"
        | "subprocess.call"
        | "subprocess.check_call"
        | "subprocess.check_output"
        | "subprocess.Popen" => "subprocess",
        "asyncio.create_subprocess_exec" | "asyncio.create_subprocess_shell" => "asyncio",
        "os.system" | "os.popen" | "os.posix_spawn" | "os.posix_spawnp" => "os",
        other if other.starts_with("os.exec") || other.starts_with("os.spawn") => "os",
        _ => return None,
    };
    Some(library)
}

/// A filesystem function and whether it writes (`None`: decided by a mode).
pub fn filesystem_function(name: &str) -> Option<(&'static str, Option<bool>)> {
    Some(match name {
        "io.open" => ("io", None),
        "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree" | "shutil.move"
        | "shutil.rmtree" => ("shutil", Some(true)),
        "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs" | "os.rename" | "os.replace"
        | "os.makedirs" | "os.mkdir" | "os.chmod" | "os.truncate" => ("os", Some(true)),
        "os.listdir" | "os.walk" | "os.scandir" | "os.stat" => ("os", Some(false)),
        _ => return None,
    })
}

/// A `pathlib.Path` method and whether it writes.
pub fn path_method(method: &str) -> Option<Option<bool>> {
    Some(match method {
        "write_text" | "write_bytes" | "touch" | "unlink" | "rename" | "replace" | "mkdir"
        | "rmdir" | "chmod" => Some(true),
        "read_text" | "read_bytes" | "glob" | "rglob" | "iterdir" | "stat" | "exists"
        | "is_file" | "is_dir" => Some(false),
        "open" => None,
        _ => return None,
    })
}

/// A database connection a library builds: `(library, service)`.
pub fn database_connect(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "sqlite3.connect" => ("sqlite3", "sqlite"),
        "psycopg2.connect" => ("psycopg2", "postgresql"),
        "psycopg.connect" => ("psycopg", "postgresql"),
        "asyncpg.connect" => ("asyncpg", "postgresql"),
        "pymysql.connect" => ("pymysql", "mysql"),
        // Pools hand out connections (`getconn`, `acquire`, `connection`).
        "psycopg2.pool.SimpleConnectionPool"
        | "psycopg2.pool.ThreadedConnectionPool"
        | "psycopg2.pool.AbstractConnectionPool" => ("psycopg2", "postgresql"),
        "psycopg_pool.ConnectionPool" | "psycopg_pool.AsyncConnectionPool" => {
            ("psycopg", "postgresql")
        }
        "asyncpg.create_pool" => ("asyncpg", "postgresql"),
        _ => return None,
    })
}

/// A cloud or messaging client a library builds: `(family, library, service)`.
pub fn service_client(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match name {
        "boto3.client" | "boto3.resource" => ("cloud", "boto3", ""),
        "smtplib.SMTP" | "smtplib.SMTP_SSL" => ("messaging", "smtplib", "smtp"),
        "slack_sdk.WebClient"
        | "slack_sdk.web.WebClient"
        | "slack_sdk.WebhookClient"
        | "slack_sdk.webhook.WebhookClient" => ("messaging", "slack_sdk", "slack"),
        "redis.Redis" | "redis.StrictRedis" | "redis.from_url" => ("database", "redis", "redis"),
        "pymongo.MongoClient" => ("database", "pymongo", "mongodb"),
        "sqlalchemy.create_engine"
        | "sqlalchemy.ext.asyncio.create_async_engine"
        // A session factory: calling it gives a session.
        | "sqlalchemy.orm.sessionmaker"
        | "sqlalchemy.orm.Session"
        | "sqlalchemy.ext.asyncio.async_sessionmaker"
        | "sqlalchemy.ext.asyncio.AsyncSession" => ("database", "sqlalchemy", ""),
        "google.cloud.storage.Client" => ("cloud", "google.cloud.storage", "storage"),
        "google.cloud.firestore.Client" => ("cloud", "google.cloud.firestore", "firestore"),
        "google.cloud.bigquery.Client" => ("cloud", "google.cloud.bigquery", "bigquery"),
        "twilio.rest.Client" => ("messaging", "twilio", "twilio"),
        "vertexai.Client"
        | "google.adk.memory.VertexAiMemoryBankService"
        | "google.cloud.aiplatform_v1beta1.MemoryBankServiceClient"
        | "google.cloud.aiplatform_v1beta1.services.memory_bank_service.MemoryBankServiceClient" => {
            ("cloud", "memory_bank", "memory_bank")
        }
        _ => return None,
    })
}

/// Methods on a recognised client that hand back another object of the
/// same service (`client.bucket("b")`, `db.collection("c")`,
/// `engine.connect()`), so what is called on that object is still read.
pub fn service_handle(library: &str, method: &str) -> bool {
    match library {
        "google.cloud.storage" => matches!(method, "bucket" | "get_bucket" | "blob" | "get_blob"),
        "google.cloud.firestore" => matches!(method, "collection" | "document"),
        "pymongo" => matches!(method, "get_database" | "get_collection"),
        "sqlalchemy" => matches!(method, "connect" | "begin"),
        "boto3" => matches!(method, "Table" | "Bucket" | "Object"),
        _ => false,
    }
}

/// What a method of a cloud or messaging client does (`None`: outside the
/// table, so the direction is not established).
pub fn service_method(library: &str, method: &str) -> Option<&'static str> {
    match library {
        "boto3" => {
            let reads = ["get_", "list_", "describe_", "head_"];
            let writes = ["put_", "create_", "delete_", "update_", "upload_"];
            if reads.iter().any(|p| method.starts_with(p)) {
                Some("read")
            } else if writes.iter().any(|p| method.starts_with(p)) {
                Some("write")
            } else {
                None
            }
        }
        "smtplib" => matches!(method, "sendmail" | "send_message").then_some("write"),
        "slack_sdk" => match method {
            "chat_postMessage" | "chat_postEphemeral" | "chat_update" | "files_upload"
            | "files_upload_v2" | "send" | "send_dict" => Some("write"),
            "conversations_history" | "conversations_list" | "users_info" => Some("read"),
            _ => None,
        },
        "google.cloud.storage" => match method {
            "upload_from_string"
            | "upload_from_filename"
            | "upload_from_file"
            | "delete"
            | "patch"
            | "rename_blob"
            | "copy_blob"
            | "compose" => Some("write"),
            "download_as_text"
            | "download_as_bytes"
            | "download_as_string"
            | "download_to_filename"
            | "exists"
            | "list_blobs"
            | "reload" => Some("read"),
            _ => None,
        },
        "google.cloud.firestore" => match method {
            "set" | "update" | "delete" | "add" | "create" => Some("write"),
            "get" | "stream" | "list_documents" => Some("read"),
            _ => None,
        },
        "google.cloud.bigquery" => match method {
            "insert_rows"
            | "insert_rows_json"
            | "load_table_from_json"
            | "delete_table"
            | "create_table" => Some("write"),
            "get_table" | "list_rows" | "list_tables" => Some("read"),
            _ => None,
        },
        "twilio" => matches!(method, "create").then_some("write"),
        "memory_bank" => {
            if ["retrieve", "get", "list", "search"]
                .iter()
                .any(|p| method.starts_with(p))
            {
                Some("read")
            } else if ["generate", "create", "update", "delete", "add"]
                .iter()
                .any(|p| method.starts_with(p))
            {
                Some("write")
            } else {
                None
            }
        }
        "pymongo" => match method {
            "find" | "find_one" | "count_documents" | "distinct" | "estimated_document_count" => {
                Some("read")
            }
            "insert_one"
            | "insert_many"
            | "update_one"
            | "update_many"
            | "replace_one"
            | "delete_one"
            | "delete_many"
            | "find_one_and_update"
            | "find_one_and_delete"
            | "bulk_write"
            | "drop" => Some("write"),
            _ => None,
        },
        "sqlalchemy" => match method {
            "add" | "add_all" | "delete" | "merge" | "commit" => Some("write"),
            _ => None,
        },
        "redis" => match method {
            "get" | "mget" | "hget" | "hgetall" | "exists" | "keys" | "lrange" | "smembers" => {
                Some("read")
            }
            "set" | "setex" | "mset" | "hset" | "delete" | "expire" | "lpush" | "rpush"
            | "sadd" | "incr" | "decr" => Some("write"),
            _ => None,
        },
        _ => None,
    }
}

/// A SQL statement's leading keyword and what it does: a `SELECT` reads
/// only when nothing after its keyword could write.
pub fn sql_operation(statement: &str) -> (String, &'static str) {
    let trimmed = statement.trim_start();
    let keyword: String = trimmed
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_uppercase();
    let upper = trimmed.to_ascii_uppercase();
    let reads = matches!(
        keyword.as_str(),
        "SELECT" | "WITH" | "VALUES" | "SHOW" | "EXPLAIN"
    );
    let one_statement = !upper.trim_end().trim_end_matches(';').contains(';');
    let writes_inside = [" INTO ", "INSERT", "UPDATE", "DELETE", "SETVAL", "NEXTVAL"]
        .iter()
        .any(|w| upper.contains(w));
    let operation = if reads && one_statement && !writes_inside {
        "read"
    } else if keyword.is_empty() {
        "unknown"
    } else {
        "write"
    };
    (keyword, operation)
}

/// Library functions with no effect outside the process.
pub fn is_pure_function(name: &str) -> bool {
    let module = name.rsplit_once('.').map_or("", |(m, _)| m);
    matches!(
        module,
        "json"
            | "re"
            | "os.path"
            | "logging"
            | "math"
            | "datetime"
            | "datetime.datetime"
            | "uuid"
            | "time"
            | "base64"
            | "hashlib"
            | "hmac"
            | "urllib.parse"
            | "typing"
            | "decimal"
            | "collections"
            | "itertools"
            | "functools"
            | "textwrap"
            | "string"
            | "random"
            | "dataclasses"
            | "enum"
    ) || matches!(
        name,
        "os.getenv"
            | "sqlalchemy.text"
            | "os.environ.get"
            | "os.fspath"
            | "os.getcwd"
            | "pathlib.Path"
            | "pathlib.PurePath"
    )
}

/// Builtins with no effect outside the process (`open` is a filesystem
/// effect, not here).
pub fn is_pure_builtin(name: &str) -> bool {
    matches!(
        name,
        "len"
            | "str"
            | "int"
            | "float"
            | "bool"
            | "dict"
            | "list"
            | "tuple"
            | "set"
            | "frozenset"
            | "sorted"
            | "reversed"
            | "min"
            | "max"
            | "sum"
            | "abs"
            | "round"
            | "enumerate"
            | "zip"
            | "range"
            | "isinstance"
            | "issubclass"
            | "repr"
            | "format"
            | "any"
            | "all"
            | "print"
            | "hash"
            | "id"
            | "type"
            | "bytes"
            | "chr"
            | "ord"
            | "divmod"
            | "pow"
            | "hex"
            | "oct"
            | "bin"
            | "iter"
            | "next"
            | "getattr"
            | "hasattr"
            | "callable"
            | "vars"
            | "super"
    ) || is_builtin_exception(name)
}

fn is_builtin_exception(name: &str) -> bool {
    matches!(
        name,
        "Exception"
            | "ValueError"
            | "KeyError"
            | "TypeError"
            | "RuntimeError"
            | "IndexError"
            | "AttributeError"
            | "LookupError"
            | "NotImplementedError"
            | "PermissionError"
            | "FileNotFoundError"
            | "OSError"
            | "IOError"
            | "TimeoutError"
            | "ConnectionError"
            | "AssertionError"
            | "StopIteration"
    )
}

/// Methods that only read plain data (or a response a recognised library
/// returned), or change the function's own containers.
pub fn is_plain_data_method(method: &str) -> bool {
    matches!(
        method,
        "get"
            | "json"
            | "strip"
            | "lstrip"
            | "rstrip"
            | "lower"
            | "upper"
            | "title"
            | "split"
            | "rsplit"
            | "splitlines"
            | "join"
            | "format"
            | "items"
            | "keys"
            | "values"
            | "startswith"
            | "endswith"
            | "replace"
            | "encode"
            | "decode"
            | "find"
            | "count"
            | "index"
            | "isdigit"
            | "isalpha"
            | "copy"
            | "raise_for_status"
            | "iter_lines"
            | "iter_content"
            | "read"
            | "text"
            | "isoformat"
            | "hexdigest"
            | "digest"
            | "timestamp"
            | "total_seconds"
            | "casefold"
            | "capitalize"
            | "zfill"
            | "partition"
            | "rpartition"
            | "removeprefix"
            | "removesuffix"
            | "isnumeric"
            | "isalnum"
            | "isspace"
            | "strftime"
            | "group"
            | "groups"
            | "append"
            | "extend"
            | "update"
            | "pop"
            | "setdefault"
            | "insert"
            | "remove"
            | "sort"
            | "add"
            | "discard"
            | "clear"
    )
}

/// A header, query key or field name that carries a credential. Names are
/// matched by whole word, so `max_tokens` and `Idempotency-Key` are not.
pub fn is_credential_name(name: &str) -> bool {
    let words = words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    has("authorization")
        || has("cookie")
        || has("token")
        || has("secret")
        || has("password")
        || has("passwd")
        || has("apikey")
        || (has("key")
            && (has("api") || has("access") || has("secret") || has("subscription") || has("auth")))
        || name.eq_ignore_ascii_case("key")
}

/// The lowercase words of a name: split on non-alphanumerics and camel case.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_whole_words() {
        assert!(is_credential_name("Authorization"));
        assert!(is_credential_name("X-Api-Key"));
        assert!(is_credential_name("access_token"));
        assert!(is_credential_name("apiKey"));
        assert!(!is_credential_name("max_tokens"));
        assert!(!is_credential_name("Idempotency-Key"));
        assert!(!is_credential_name("Content-Type"));
    }

    #[test]
    fn a_select_reads_only_when_nothing_in_it_writes() {
        assert_eq!(sql_operation("select * from t where id = ?").1, "read");
        assert_eq!(sql_operation("SELECT * INTO backup FROM t").1, "write");
        assert_eq!(sql_operation("SELECT 1; DROP TABLE t").1, "write");
        assert_eq!(sql_operation("SELECT setval('s', 1)").1, "write");
        assert_eq!(sql_operation("DELETE FROM t").0, "DELETE");
        assert_eq!(sql_operation("  insert into t values (1)").1, "write");
    }
}
