//! Placeholder until the CPython ast.dump printer lands.
use sha2::{Digest, Sha256};
pub fn implementation_sha256(def: &ruff_python_ast::StmtFunctionDef) -> String {
    let mut h = Sha256::new();
    h.update(format!("{def:?}").as_bytes());
    format!("{:x}", h.finalize())
}
