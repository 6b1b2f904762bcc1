//! The session state a host stores between requests: an opaque, versioned
//! JSON document (memory, a file, Redis, Envoy shared data — anything that
//! holds a string). Written deterministically, so the same catalog pinned by
//! the native engine and by the component gives the same bytes.

use crate::json::{self, Object, ParseOptions, Value};
use crate::policy::{Dialect, PinningPolicy};
use crate::{Error, ENGINE_VERSION};

/// Nesting bound when restoring a baseline: the largest catalog depth a
/// policy admits (256) plus the baseline's own levels.
const MAX_BASELINE_DEPTH: usize = 260;

/// Version of the baseline document; a different one is refused.
///
/// `/2`: pin digests also cover the boolean annotation hints
/// (`pinning::PINNED_HINTS`). A `/1` baseline's digests and pinned
/// definitions lack them: compared with today's pins, every tool with hints
/// whose served bytes changed at all would be reported with hints "added"
/// (drift that is not there). So it is refused as `invalid-baseline`, with a
/// reason saying to pin again, and never compared.
pub const BASELINE_FORMAT: &str = "mcp-guard-baseline/2";

/// One pinned tool: its visible name, digest and the pinned fields (kept so
/// a drift report can say where a tool changed).
#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    pub name: String,
    /// Lower-case hex SHA-256 (see `pinning::tool_digest`).
    pub digest: String,
    /// SHA-256 of the tool's served bytes: a compare that meets the same
    /// bytes again skips canonicalization (see `pinning::bytes_digest`).
    pub bytes: String,
    /// The pinned fields of the tool as the client saw them.
    pub def: Value,
}

/// How a callable tool relates to the pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallableState {
    /// Matches its pin.
    Pinned,
    /// Changed since pinned, served anyway (`warn`).
    Changed,
    /// Not pinned, served anyway (`warn`).
    New,
    /// Pinning is off for this session.
    Unpinned,
}

impl CallableState {
    pub fn id(self) -> &'static str {
        match self {
            CallableState::Pinned => "pinned",
            CallableState::Changed => "changed",
            CallableState::New => "new",
            CallableState::Unpinned => "unpinned",
        }
    }
    fn from_id(s: &str) -> Option<Self> {
        [CallableState::Pinned, CallableState::Changed, CallableState::New, CallableState::Unpinned].into_iter().find(|c| c.id() == s)
    }
}

/// A tool the client may call now.
#[derive(Clone, Debug, PartialEq)]
pub struct Callable {
    /// The name the client sees and calls.
    pub name: String,
    /// The name the server knows (differs when the name policy mapped it).
    pub upstream: String,
    pub state: CallableState,
    /// The schema arguments are checked against: the server's own input
    /// schema before any dialect rewrite. `None`: the pinned `inputSchema`.
    pub schema: Option<Value>,
}

/// Discovery settings a session needs to answer the meta-tools itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryConf {
    pub max_results: u32,
    pub synonyms: Vec<Vec<String>>,
}

/// The per-session state: pins, the callable surface, revocations.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// Engine that pinned (digests include it; another engine refuses).
    pub engine: String,
    pub server: Option<String>,
    /// Dialect the visible schemas were normalized for (argument coercion).
    pub dialect: Dialect,
    /// Pinned tool fields, in policy order.
    pub fields: Vec<String>,
    /// False when pinning was off: the first pinned exposure pins.
    pub pinned: bool,
    /// Digest over every tool digest (hex; empty when not pinned).
    pub digest: String,
    /// Shared: they never change within a session, and a host compares
    /// often.
    pub pins: std::sync::Arc<Vec<Pin>>,
    pub surface: Vec<Callable>,
    /// Visible names revoked by drift for the rest of the session.
    pub revoked: Vec<String>,
    /// Upstream names the engine hid from the client (refusal reasons).
    pub hidden: Vec<String>,
    /// Set when drift closed the session (`error` + `invalidate`).
    pub invalidated: Option<String>,
    /// Visible names held back by `quarantine` at the last listing (changed
    /// since approved, or new): not served, calls refused as `quarantined`
    /// until a person approves them. Not sticky like `revoked`: the next
    /// listing decides again against the approved pins.
    pub quarantined: Vec<String>,
    /// Set when the session is served the discovery surface.
    pub discovery: Option<DiscoveryConf>,
    /// Under discovery: the tools behind the surface, as served (what
    /// `search_tools` and `get_tool_schema` read). Empty otherwise.
    pub catalog: Vec<Value>,
}

fn bad(reason: impl Into<String>) -> Error {
    Error::InvalidBaseline { reason: reason.into() }
}

impl Baseline {
    pub(crate) fn empty(server: Option<String>, dialect: Dialect, pp: &PinningPolicy) -> Baseline {
        Baseline {
            engine: ENGINE_VERSION.to_string(),
            server,
            dialect,
            fields: pp.fields.clone(),
            pinned: false,
            digest: String::new(),
            pins: Default::default(),
            surface: Vec::new(),
            revoked: Vec::new(),
            hidden: Vec::new(),
            invalidated: None,
            quarantined: Vec::new(),
            discovery: None,
            catalog: Vec::new(),
        }
    }

    /// The next state: the same pins and revocations, the surface to fill.
    pub(crate) fn successor(&self) -> Baseline {
        Baseline {
            engine: self.engine.clone(),
            server: self.server.clone(),
            dialect: self.dialect,
            fields: self.fields.clone(),
            pinned: self.pinned,
            digest: self.digest.clone(),
            pins: self.pins.clone(),
            surface: Vec::new(),
            revoked: self.revoked.clone(),
            hidden: self.hidden.clone(),
            invalidated: self.invalidated.clone(),
            quarantined: Vec::new(),
            discovery: self.discovery.clone(),
            catalog: Vec::new(),
        }
    }

    /// A baseline is only comparable under the settings it was pinned with.
    pub(crate) fn check_compatible(&self, server: Option<&str>, dialect: Dialect, pp: &PinningPolicy) -> Result<(), Error> {
        if self.engine != ENGINE_VERSION {
            return Err(bad(format!(
                "pinned by engine {} but this is engine {ENGINE_VERSION}: digests are not comparable; start a new session",
                self.engine
            )));
        }
        if self.server.as_deref() != server {
            let name = |s: Option<&str>| s.map_or_else(|| "no server id".to_string(), |s| format!("server {s:?}"));
            return Err(bad(format!("pinned for {}, compared for {}", name(self.server.as_deref()), name(server))));
        }
        if self.pinned && self.fields != pp.fields {
            return Err(bad(format!("pins fields {:?} but the policy pins {:?}", self.fields, pp.fields)));
        }
        if self.dialect != dialect {
            return Err(bad(format!("pinned for dialect {} but the policy targets {}", self.dialect.id(), dialect.id())));
        }
        Ok(())
    }

    /// What a person approved, without this session's verdicts: the pins,
    /// and of the callable surface only the tools that match their pins
    /// (a drifted tool served under `warn` is not approved by being served).
    /// No revocation, quarantine or invalidation: those belong to one run.
    /// This is what a pin record keeps across runs.
    pub fn approved_view(&self) -> Baseline {
        let mut b = self.clone();
        b.surface.retain(|c| c.state == CallableState::Pinned);
        let keep: std::collections::HashSet<&str> = b.surface.iter().map(|c| c.name.as_str()).collect();
        let catalog = b
            .catalog
            .iter()
            .filter(|t| t.as_object().and_then(|o| o.get("name")).and_then(Value::as_str).is_some_and(|n| keep.contains(n)))
            .cloned()
            .collect();
        b.catalog = catalog;
        b.revoked.clear();
        b.quarantined.clear();
        b.invalidated = None;
        b
    }

    /// The pin of a visible name.
    pub fn pin(&self, name: &str) -> Option<&Pin> {
        self.pins.iter().find(|p| p.name == name)
    }

    /// The deterministic JSON form (compact).
    pub fn to_json(&self) -> String {
        let strs = |v: &[String]| Value::Array(v.iter().map(|s| Value::str(s.clone())).collect());
        let opt = |v: &Option<String>| v.as_ref().map_or(Value::Null, |s| Value::str(s.clone()));
        let mut o = Object::with_capacity(12);
        o.insert("format", Value::str(BASELINE_FORMAT));
        o.insert("engine", Value::str(self.engine.clone()));
        o.insert("server", opt(&self.server));
        o.insert("dialect", Value::str(self.dialect.id()));
        o.insert("fields", strs(&self.fields));
        o.insert("pinned", Value::Bool(self.pinned));
        o.insert("digest", Value::str(self.digest.clone()));
        o.insert("invalidated", opt(&self.invalidated));
        let pins = self.pins.iter().map(|p| {
            let mut e = Object::with_capacity(3);
            e.insert("name", Value::str(p.name.clone()));
            e.insert("digest", Value::str(p.digest.clone()));
            e.insert("bytes", Value::str(p.bytes.clone()));
            e.insert("def", p.def.clone());
            Value::Object(e)
        });
        o.insert("pins", Value::Array(pins.collect()));
        let surface = self.surface.iter().map(|c| {
            let mut e = Object::with_capacity(4);
            e.insert("name", Value::str(c.name.clone()));
            if c.upstream != c.name {
                e.insert("upstream", Value::str(c.upstream.clone()));
            }
            e.insert("state", Value::str(c.state.id()));
            if let Some(s) = &c.schema {
                e.insert("schema", s.clone());
            }
            Value::Object(e)
        });
        o.insert("surface", Value::Array(surface.collect()));
        o.insert("revoked", strs(&self.revoked));
        o.insert("hidden", strs(&self.hidden));
        // Only when set: baselines of the other modes keep their bytes.
        if !self.quarantined.is_empty() {
            o.insert("quarantined", strs(&self.quarantined));
        }
        o.insert(
            "discovery",
            match &self.discovery {
                None => Value::Null,
                Some(d) => {
                    let mut e = Object::with_capacity(2);
                    e.insert("max_results", Value::Number(json::Number::from_u64(d.max_results as u64)));
                    e.insert("synonyms", Value::Array(d.synonyms.iter().map(|g| strs(g)).collect()));
                    Value::Object(e)
                }
            },
        );
        o.insert("catalog", Value::Array(self.catalog.clone()));
        json::write_compact(&Value::Object(o))
    }

    /// Restores a baseline written by [`Baseline::to_json`]; anything else
    /// (another format version, a missing or mistyped member, a surface entry
    /// without a schema to check calls against) is `Error::InvalidBaseline`.
    pub fn from_json(text: &str) -> Result<Baseline, Error> {
        // A pinned definition sits one level deeper than in its catalog, and
        // catalogs may nest up to the policy's ceiling of 256.
        let v = json::parse(text, ParseOptions { max_depth: MAX_BASELINE_DEPTH }).map_err(|e| bad(format!("not JSON: {e}")))?.value;
        let o = v.as_object().ok_or_else(|| bad("not a JSON object"))?;
        let get = |k: &str| o.get(k).ok_or_else(|| bad(format!("missing `{k}`")));
        let string = |k: &str| get(k)?.as_str().map(str::to_string).ok_or_else(|| bad(format!("`{k}` must be a string")));
        let opt = |k: &str| match get(k)? {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            _ => Err(bad(format!("`{k}` must be a string or null"))),
        };
        let strs = |k: &str| -> Result<Vec<String>, Error> {
            get(k)?
                .as_array()
                .ok_or_else(|| bad(format!("`{k}` must be an array")))?
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(|| bad(format!("`{k}` must hold strings"))))
                .collect()
        };
        let format = string("format")?;
        if format == "mcp-guard-baseline/1" {
            return Err(bad(format!(
                "format {format:?} was pinned without the annotation hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) that {BASELINE_FORMAT:?} pins: pin the catalog again (a new session)"
            )));
        }
        if format != BASELINE_FORMAT {
            return Err(bad(format!("format {format:?} is not {BASELINE_FORMAT:?}")));
        }
        let dialect = Dialect::from_id(&string("dialect")?).ok_or_else(|| bad("unknown `dialect`"))?;
        let pinned = get("pinned")?.as_bool().ok_or_else(|| bad("`pinned` must be a boolean"))?;
        let entries = |k: &str| -> Result<Vec<&Object>, Error> {
            get(k)?
                .as_array()
                .ok_or_else(|| bad(format!("`{k}` must be an array")))?
                .iter()
                .map(|x| x.as_object().ok_or_else(|| bad(format!("`{k}` must hold objects"))))
                .collect()
        };
        let field = |e: &Object, k: &str, what: &str| -> Result<String, Error> {
            e.get(k).and_then(Value::as_str).map(str::to_string).ok_or_else(|| bad(format!("a {what} entry needs a string `{k}`")))
        };
        let mut pins = Vec::new();
        for e in entries("pins")? {
            let def = e.get("def").filter(|d| d.as_object().is_some()).cloned().ok_or_else(|| bad("a pin needs an object `def`"))?;
            pins.push(Pin {
                name: field(e, "name", "pin")?,
                digest: field(e, "digest", "pin")?,
                bytes: field(e, "bytes", "pin")?,
                def,
            });
        }
        let with_schema: std::collections::HashSet<&str> = pins
            .iter()
            .filter(|p| p.def.as_object().is_some_and(|d| d.contains_key("inputSchema")))
            .map(|p| p.name.as_str())
            .collect();
        let mut surface = Vec::new();
        for e in entries("surface")? {
            let name = field(e, "name", "surface")?;
            let upstream = match e.get("upstream") {
                None => name.clone(),
                Some(_) => field(e, "upstream", "surface")?,
            };
            let state = CallableState::from_id(&field(e, "state", "surface")?).ok_or_else(|| bad("unknown surface `state`"))?;
            let schema = e.get("schema").cloned();
            if schema.is_none() && !with_schema.contains(name.as_str()) {
                return Err(bad(format!("surface entry {name:?} has no schema and no pinned inputSchema")));
            }
            surface.push(Callable { name, upstream, state, schema });
        }
        Ok(Baseline {
            engine: string("engine")?,
            server: opt("server")?,
            dialect,
            fields: strs("fields")?,
            pinned,
            digest: string("digest")?,
            pins: std::sync::Arc::new(pins),
            surface,
            revoked: strs("revoked")?,
            hidden: strs("hidden")?,
            invalidated: opt("invalidated")?,
            quarantined: if o.contains_key("quarantined") { strs("quarantined")? } else { Vec::new() },
            discovery: match get("discovery")? {
                Value::Null => None,
                Value::Object(d) => {
                    let max_results = d
                        .get("max_results")
                        .and_then(|v| if let Value::Number(n) = v { n.as_u64() } else { None })
                        .filter(|n| (1..=100).contains(n))
                        .ok_or_else(|| bad("`discovery.max_results` must be 1 to 100"))? as u32;
                    let synonyms = d
                        .get("synonyms")
                        .and_then(Value::as_array)
                        .and_then(|a| {
                            a.iter()
                                .map(|g| g.as_array().and_then(|w| w.iter().map(|x| x.as_str().map(str::to_string)).collect()))
                                .collect::<Option<Vec<Vec<String>>>>()
                        })
                        .ok_or_else(|| bad("`discovery.synonyms` must be a list of word lists"))?;
                    Some(DiscoveryConf { max_results, synonyms })
                }
                _ => return Err(bad("`discovery` must be an object or null")),
            },
            catalog: get("catalog")?.as_array().cloned().ok_or_else(|| bad("`catalog` must be an array"))?,
        })
    }
}
