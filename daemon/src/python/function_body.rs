//! What a function's body binds, returns, calls, stores, loops over and
//! which names it uses, held encoded until a reader asks for it.
//!
//! Most function bodies of a scope are never read: reach reads the bodies
//! of bound tools and the helpers they call, the graph the bodies of
//! factories and of functions that build agents. Decoded, the bodies were
//! half of a cold run's facts on a 900-module repository (54 MB of 105 MB,
//! issue 23); encoded and packed they are 7 MB. A body is decoded the
//! first time it is read and kept decoded from then on, so a reader pays
//! the decoding once and borrows as before.
//!
//! Readers that look through every function ask the body's filters first
//! (`FunctionFact::may_bind`, `may_assign`, `may_alias`, `may_call`): each
//! answers "no" only for what the body does not hold, so skipping on "no"
//! is exact.

use serde::de::{Error as _, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::OnceLock;

use super::{
    BindingFact, BindingKind, BodyCall, FunctionFact, ImportFact, LoopTarget, ReturnFact, Value,
    ValueStore,
};

/// A function body's facts (not a nested definition's).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FunctionBody {
    /// Names the body binds directly (not inside nested definitions), its
    /// parameters first.
    pub locals: Vec<BindingFact>,
    /// Every `return` of the body, in source order.
    pub returns_found: Vec<ReturnFact>,
    /// Every call the body makes (not a nested definition's), in source
    /// order: what `reach/` reads a tool's effects from.
    pub body_calls: Vec<BodyCall>,
    /// Values the body stores into objects it names (`s.auth = v`,
    /// `payload["k"] = v`, `s.headers["k"] = v`), in source order: a
    /// request body or a client's settings changed after they are built.
    pub stores: Vec<ValueStore>,
    /// `for name in iterable` loops of the body with a plain-name target:
    /// what the name holds is an item of the iterable.
    pub loops: Vec<LoopTarget>,
    /// How often each name is read (or deleted) in this body, a class
    /// body inside it included but not a nested function's: the module's
    /// `name_uses` counted per function, so a local list is accounted for
    /// in the function that binds it. Read for one function (and what is
    /// nested in it) at a time, never across a module.
    pub name_uses: super::NameCounts,
}

impl FunctionBody {
    fn shrink_to_fit(&mut self) {
        self.locals.shrink_to_fit();
        self.returns_found.shrink_to_fit();
        self.body_calls.shrink_to_fit();
        self.stores.shrink_to_fit();
        self.loops.shrink_to_fit();
    }
}

impl FunctionFact {
    /// What the body binds, returns, calls, stores and loops over.
    pub fn body(&self) -> &FunctionBody {
        self.lazy_body.get()
    }

    /// Whether the body may bind `name` (a parameter, or a local it
    /// assigns): `false` only when no local of `body()` is named so, so a
    /// reader looking for a local through every function skips the bodies
    /// it would find nothing in.
    pub fn may_bind(&self, name: &str) -> bool {
        self.params.iter().any(|p| p.name == name) || self.may_assign(name)
    }

    /// Whether the body may bind `name` other than as a parameter: `false`
    /// only when no local of `body()` but a parameter is named so.
    pub fn may_assign(&self, name: &str) -> bool {
        self.assigns.may_contain(name)
    }

    /// Whether the body may bind a local to a dotted attribute whose last
    /// name is `attribute` (`t = support.tools`): `false` only when no
    /// local of `body()` has such a value.
    pub fn may_alias(&self, attribute: &str) -> bool {
        self.aliases.may_contain(attribute)
    }

    /// Whether a call of the body may be spelled with `word`: `false` only
    /// when no call of `body().body_calls` has `word` as its callee's
    /// dotted name or last name (as spelled, or as an import of the module
    /// names what the callee's first name binds), as the method it calls on
    /// a value, or as the beginning of such a last name through its first
    /// underscore (`instrument_` of `instrument_httpx`).
    pub fn may_call(&self, word: &str) -> bool {
        self.calls.may_contain(word)
    }

    /// The body's bindings of `name`, in source order (decoding the body
    /// only when it may bind the name).
    pub fn locals_named<'f, 'n>(
        &'f self,
        name: &'n str,
    ) -> impl Iterator<Item = &'f BindingFact> + use<'f, 'n> {
        let locals: &[BindingFact] = if self.may_bind(name) {
            &self.body().locals
        } else {
            &[]
        };
        locals.iter().filter(move |b| b.name == name)
    }

    /// Whether the body binds `name` (decoding it only when it may).
    pub fn binds_local(&self, name: &str) -> bool {
        self.locals_named(name).next().is_some()
    }

    /// Encodes the complete body and notes the names it binds and the
    /// words its calls are spelled with: the last step of extraction, when
    /// the module's imports are known.
    pub(super) fn seal_body(&mut self, imports: &ImportsByName<'_>) {
        let body = self.lazy_body.get_mut();
        self.assigns = assigned_names(body);
        self.aliases = aliased_attributes(body);
        self.calls = call_words(body, imports);
        self.lazy_body.seal();
    }
}

/// A `FunctionBody`, encoded (postcard) once extraction is done, and
/// decoded on first read. Four words: a function's facts carry it inline.
/// The encoding is not packed: the store packs each module's facts whole,
/// and packing each body as well cost a cold read more time (a compressor
/// table per body) than the few MB it saved were worth.
///
/// Invariant: `encoded` is empty only while the body is being extracted,
/// and then `decoded` holds it. Encoded bytes were made by this engine
/// version in this process, or read from a store entry whose checksum
/// held and whose bodies all decoded when it was read
/// (`ModuleFacts::bodies_decode`), so decoding them does not fail; if it
/// ever did, the body reads as empty and the failure is reported.
pub struct LazyBody {
    encoded: Box<[u8]>,
    decoded: OnceLock<Box<FunctionBody>>,
}

impl LazyBody {
    /// A body being extracted: read and written decoded.
    pub fn open(body: FunctionBody) -> Self {
        LazyBody {
            encoded: Box::default(),
            decoded: OnceLock::from(Box::new(body)),
        }
    }

    /// The body, decoded on first read.
    pub fn get(&self) -> &FunctionBody {
        self.decoded.get_or_init(|| {
            Box::new(decode(&self.encoded).unwrap_or_else(|| {
                eprintln!("shipgate: a cached function body did not decode; read as empty");
                FunctionBody::default()
            }))
        })
    }

    /// The body, for extraction to add to (opened again if sealed; sealing
    /// again encodes what it holds then).
    pub fn get_mut(&mut self) -> &mut FunctionBody {
        if self.decoded.get().is_none() {
            let body = decode(&self.encoded).unwrap_or_default();
            self.decoded = OnceLock::from(Box::new(body));
        }
        self.encoded = Box::default();
        match self.decoded.get_mut() {
            Some(body) => body,
            None => unreachable!("the body was set on the line above"),
        }
    }

    /// Encodes the body and lets go of its decoded form: what extraction
    /// does once the body is complete.
    pub fn seal(&mut self) {
        if let Some(mut body) = self.decoded.take() {
            match crate::packing::encode_with(&*body, |bytes| Box::<[u8]>::from(bytes)) {
                Ok(packed) => self.encoded = packed,
                // Plain data always encodes; keep it decoded if not.
                Err(_) => {
                    body.shrink_to_fit();
                    self.decoded = OnceLock::from(body);
                }
            }
        }
    }

    /// Whether the body is held decoded (read, or not sealed).
    pub fn is_decoded(&self) -> bool {
        self.decoded.get().is_some()
    }

    /// Whether the encoded body decodes (a store entry's check).
    pub fn decodes(&self) -> bool {
        self.is_decoded() || decode(&self.encoded).is_some()
    }

    /// The body's encoding (encoded now when it is held decoded only).
    fn encoding(&self) -> Result<std::borrow::Cow<'_, [u8]>, postcard::Error> {
        match self.decoded.get() {
            Some(body) if self.encoded.is_empty() => {
                crate::packing::encode_with(&**body, |bytes| {
                    std::borrow::Cow::Owned(bytes.to_vec())
                })
            }
            _ => Ok(std::borrow::Cow::Borrowed(&self.encoded)),
        }
    }
}

fn decode(encoded: &[u8]) -> Option<FunctionBody> {
    postcard::from_bytes(encoded).ok()
}

/// An empty body, open.
impl Default for LazyBody {
    fn default() -> Self {
        LazyBody::open(FunctionBody::default())
    }
}

impl Clone for LazyBody {
    fn clone(&self) -> Self {
        LazyBody {
            encoded: self.encoded.clone(),
            decoded: self.decoded.clone(),
        }
    }
}

impl PartialEq for LazyBody {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl std::fmt::Debug for LazyBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// Stored as its packed encoding, a byte string: decoding a module's facts
/// copies each body's bytes and decodes none of them.
impl Serialize for LazyBody {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.encoding().map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for LazyBody {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl<'de> Visitor<'de> for Bytes {
            type Value = LazyBody;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an encoded function body")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<LazyBody, E> {
                self.visit_byte_buf(bytes.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<LazyBody, E> {
                if bytes.is_empty() {
                    return Err(E::custom("an empty function body encoding"));
                }
                Ok(LazyBody {
                    encoded: bytes.into_boxed_slice(),
                    decoded: OnceLock::new(),
                })
            }
        }
        deserializer
            .deserialize_byte_buf(Bytes)
            .map_err(D::Error::custom)
    }
}

/// A set of names that may answer "maybe" for a name it does not hold,
/// never "no" for one it holds (a Bloom filter): about ten bits a name,
/// three positions a name, so a "maybe" for an absent name is about one
/// in a hundred whatever the body's size. The positions come from FNV-1a,
/// a hash that is the same in every process, so a stored filter reads as
/// it was written. An empty filter holds no allocation.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NameFilter(Box<[u64]>);

impl NameFilter {
    pub fn may_contain(&self, name: &str) -> bool {
        let bits = self.0.len() * 64;
        bits != 0
            && positions(name, bits).all(|at| {
                self.0
                    .get(at / 64)
                    .is_some_and(|word| word & (1 << (at % 64)) != 0)
            })
    }
}

/// Names gathered before their filter is sized.
#[derive(Default)]
pub struct NameFilterBuilder {
    names: Vec<u64>,
}

impl NameFilterBuilder {
    pub fn insert(&mut self, name: &str) {
        self.names.push(fnv1a(name));
    }

    /// Inserts the pieces joined by dots (`a.b` and `c` as `a.b.c`),
    /// without joining them.
    pub fn insert_dotted<'p>(&mut self, pieces: impl IntoIterator<Item = &'p str>) {
        let mut hash = FNV_OFFSET;
        for (at, piece) in pieces.into_iter().enumerate() {
            if at > 0 {
                hash = fnv1a_extend(hash, ".");
            }
            hash = fnv1a_extend(hash, piece);
        }
        self.names.push(hash);
    }

    pub fn build(mut self) -> NameFilter {
        self.names.sort_unstable();
        self.names.dedup();
        if self.names.is_empty() {
            return NameFilter::default();
        }
        // Ten bits a name, in whole words.
        let words = (self.names.len() * 10).div_ceil(64);
        let bits = words * 64;
        let mut filter = vec![0u64; words];
        for &hash in &self.names {
            for at in spread(hash, bits) {
                if let Some(word) = filter.get_mut(at / 64) {
                    *word |= 1 << (at % 64);
                }
            }
        }
        NameFilter(filter.into_boxed_slice())
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(name: &str) -> u64 {
    fnv1a_extend(FNV_OFFSET, name)
}

fn fnv1a_extend(mut hash: u64, more: &str) -> u64 {
    for byte in more.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn positions(name: &str, bits: usize) -> impl Iterator<Item = usize> {
    spread(fnv1a(name), bits)
}

/// Three positions from one hash (Kirsch and Mitzenmacher's double
/// hashing: `h1 + i * h2`).
fn spread(hash: u64, bits: usize) -> impl Iterator<Item = usize> {
    let (h1, h2) = (hash & 0xffff_ffff, (hash >> 32) | 1);
    let bits = bits.max(1) as u64;
    (0..3u64).map(move |i| (h1.wrapping_add(i.wrapping_mul(h2)) % bits) as usize)
}

/// The names the body binds other than its parameters.
pub(super) fn assigned_names(body: &FunctionBody) -> NameFilter {
    let mut names = NameFilterBuilder::default();
    for local in body
        .locals
        .iter()
        .filter(|b| b.kind != BindingKind::Parameter)
    {
        names.insert(&local.name);
    }
    names.build()
}

/// The last names of the dotted attributes the body binds locals to.
pub(super) fn aliased_attributes(body: &FunctionBody) -> NameFilter {
    let mut names = NameFilterBuilder::default();
    for local in &body.locals {
        if let Some(Value::Attribute(parts)) = &local.value {
            if let Some(last) = parts.last() {
                names.insert(last);
            }
        }
    }
    names.build()
}

/// The words the body's calls are spelled with (see
/// `FunctionFact::may_call`). For each call: its callee's last name and
/// whole dotted spelling, through a subscript to what is subscripted; for
/// each import of the module that binds the callee's first name (at any
/// scope), the absolute name the callee then reads as and its last name
/// (what `frameworks::imports::imported_name` can make of it); the method
/// a call on a value calls; and each last name's beginning through its
/// first underscore.
pub(super) fn call_words(body: &FunctionBody, imports: &ImportsByName<'_>) -> NameFilter {
    /// A last name, and its beginning through its first underscore.
    fn insert_last(words: &mut NameFilterBuilder, last: &str) {
        words.insert(last);
        if let Some(at) = last.find('_') {
            words.insert(&last[..=at]);
        }
    }
    let mut words = NameFilterBuilder::default();
    for call in &body.body_calls {
        let mut callee = &call.callee;
        while let Value::Subscript { base, .. } = callee {
            callee = base;
        }
        let spelled: &[super::Text] = match callee {
            Value::Name(name) => std::slice::from_ref(name),
            Value::Attribute(parts) => parts,
            _ => &[],
        };
        if let Some((head, rest)) = spelled.split_first() {
            words.insert_dotted(spelled.iter().map(|p| p.as_str()));
            let rest = rest.iter().map(|p| p.as_str());
            for import in imports.binding(head) {
                let absolute = std::iter::once(import.module.as_str())
                    .chain(import.name.as_deref())
                    .chain(rest.clone());
                words.insert_dotted(absolute.clone());
                if let Some(last) = absolute.last() {
                    insert_last(&mut words, last.rsplit('.').next().unwrap_or(last));
                }
            }
            if let Some(last) = spelled.last() {
                insert_last(&mut words, last);
            }
        }
        if let Some((_, method)) = call.receiver.as_deref() {
            insert_last(&mut words, method);
        }
    }
    words.build()
}

/// A module's imports by the name each binds (at any scope), built once
/// for all its functions' `call_words`.
pub(super) struct ImportsByName<'i>(Vec<(&'i str, &'i ImportFact)>);

impl<'i> ImportsByName<'i> {
    pub(super) fn of(imports: &'i [ImportFact]) -> Self {
        let mut by_name: Vec<(&str, &ImportFact)> =
            imports.iter().map(|i| (i.bound_name(), i)).collect();
        by_name.sort_by(|a, b| a.0.cmp(b.0));
        ImportsByName(by_name)
    }

    fn binding<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'i ImportFact> + 's {
        let start = self.0.partition_point(|(bound, _)| *bound < name);
        self.0[start..]
            .iter()
            .take_while(move |(bound, _)| *bound == name)
            .map(|(_, import)| *import)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::{BindingKind, Value};

    fn body() -> FunctionBody {
        FunctionBody {
            locals: vec![BindingFact {
                name: "client".into(),
                kind: BindingKind::Assignment,
                line: 3,
                conditional: false,
                type_checking: false,
                value: Some(Value::Name("httpx".into())),
                guard: Some(Vec::new()),
            }],
            ..FunctionBody::default()
        }
    }

    #[test]
    fn a_sealed_body_reads_back_what_was_sealed() {
        let mut lazy = LazyBody::open(body());
        lazy.seal();
        assert!(!lazy.is_decoded(), "sealing lets go of the decoded body");
        assert_eq!(lazy.get(), &body());
    }

    #[test]
    fn a_body_travels_as_bytes_and_decodes_on_read() {
        let mut lazy = LazyBody::open(body());
        lazy.seal();
        let bytes = postcard::to_stdvec(&lazy).expect("encodes");
        let read: LazyBody = postcard::from_bytes(&bytes).expect("decodes");
        assert!(!read.is_decoded(), "decoding the module decodes no body");
        assert!(read.decodes());
        assert_eq!(read.get(), &body());
        // An open body is stored as the same bytes.
        let open = postcard::to_stdvec(&LazyBody::open(body())).expect("encodes");
        assert_eq!(open, bytes);
    }

    #[test]
    fn damaged_bytes_are_found_before_they_are_read() {
        let read = LazyBody {
            encoded: vec![0xff, 0xff, 0xff].into_boxed_slice(),
            decoded: OnceLock::new(),
        };
        assert!(!read.decodes());
        assert_eq!(read.get(), &FunctionBody::default());
        // A default body is an open, empty one: nothing to decode.
        assert!(LazyBody::default().is_decoded());
    }

    #[test]
    fn the_filter_never_says_no_for_a_name_it_holds() {
        let names: Vec<String> = (0..400).map(|i| format!("name_{i}")).collect();
        let mut builder = NameFilterBuilder::default();
        for name in &names {
            builder.insert(name);
        }
        let filter = builder.build();
        assert!(names.iter().all(|n| filter.may_contain(n)));
        // About one in a hundred absent names reads as "maybe".
        let maybe = (0..10_000)
            .filter(|i| filter.may_contain(&format!("other_{i}")))
            .count();
        assert!(maybe < 400, "{maybe} of 10,000 absent names read as maybe");
        let mut small = NameFilterBuilder::default();
        small.insert("client");
        let small = small.build();
        assert!(small.may_contain("client"));
        assert!(!small.may_contain("tools"));
        assert!(!NameFilter::default().may_contain("client"));
    }

    const MODULE: &str = "import logfire\nfrom ddtrace import patch as trace_all\n\n\ndef boot():\n    trace_all()\n\n\ndef observe(client):\n    logfire.instrument_httpx()\n    make(client).instrument()\n\n\ndef handle(support):\n    tools = support.tools\n    return tools\n";

    fn function<'f>(
        facts: &'f crate::python::ModuleFacts,
        name: &str,
    ) -> &'f crate::python::FunctionFact {
        facts
            .functions
            .iter()
            .find(|f| f.name == name)
            .expect("the function is in the facts")
    }

    /// Every word a census asks about is in the filter of the body whose
    /// call is spelled with it; extraction leaves every body encoded.
    #[test]
    fn a_bodys_filters_hold_what_its_readers_ask_about() {
        let facts = crate::python::extract_facts(MODULE.as_bytes());
        assert!(facts.functions.iter().all(|f| !f.lazy_body.is_decoded()));
        let boot = function(&facts, "boot");
        // The callee's own spelling, and what the import makes of it.
        assert!(boot.may_call("trace_all"));
        assert!(boot.may_call("ddtrace.patch"));
        assert!(boot.may_call("patch"));
        let observe = function(&facts, "observe");
        assert!(observe.may_call("logfire.instrument_httpx"));
        assert!(observe.may_call("instrument_httpx"));
        assert!(observe.may_call("instrument_"));
        // The method called on a value.
        assert!(observe.may_call("instrument"));
        assert!(!observe.may_call("ddtrace.patch"));
        let handle = function(&facts, "handle");
        assert!(handle.may_bind("support"), "a parameter");
        assert!(!handle.may_assign("support"), "a parameter only");
        assert!(handle.may_assign("tools"));
        assert!(handle.may_alias("tools"));
        assert!(!handle.may_alias("handoffs"));
        assert!(handle.binds_local("tools"));
        assert!(!handle.binds_local("client"));
        // Asking decoded only the bodies that had to be read.
        assert!(handle.lazy_body.is_decoded());
        assert!(!boot.lazy_body.is_decoded());
    }

    #[test]
    fn a_filter_reads_back_as_it_was_stored() {
        let mut builder = NameFilterBuilder::default();
        builder.insert("instrument_");
        let filter = builder.build();
        let read: NameFilter =
            postcard::from_bytes(&postcard::to_stdvec(&filter).expect("encodes")).expect("decodes");
        assert_eq!(read, filter);
        assert!(read.may_contain("instrument_"));
    }
}
