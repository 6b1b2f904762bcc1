//! Pins that outlive a session: the file store of pin records and
//! `mcp-guard pins list | show | approve | forget`.
//!
//! A desktop client starts its stdio servers afresh every session, so pins
//! kept per session never see a rug pull between two runs. The proxy keeps
//! one pin record per server (`mcp_guard::pinning::PinRecord`) in a
//! directory: `--pins DIR`, else `$XDG_STATE_HOME/mcp-guard/pins`, else
//! `~/.local/state/mcp-guard/pins`. The engine decides what a record holds
//! and when it changed (`Out::Persist`); this file only reads and writes it.
//!
//! - One file per server key, named `<record_id(key)>.json` (a hash: a key
//!   holding `/` or `..` never becomes a path). The key is the proxy's
//!   `--server ID`, else its server command line (`stdio:["cmd","arg",…]`):
//!   never what the server says it is.
//! - Written atomically: a temporary file in the same directory, synced,
//!   then renamed over the record, so a reader (the other run, `pins show`)
//!   sees the old record or the new one, never half of one.
//! - A record that does not read (corrupt, another format or engine
//!   version) is a clear error naming the file; it is never replaced
//!   silently, which would be a fresh trust on first use for a server that
//!   may have just pulled the rug. `pins forget SERVER` removes it.
//! - Between runs a person approves: `pins approve` rewrites the record;
//!   the next run serves what was approved. A proxy still running writes
//!   the record again only when what it lists changes.

use crate::args::{Args, Tok};
use crate::{print_out, term, Failure, LoadedPolicy, EXIT_FINDINGS, EXIT_OK};
use mcp_guard::json::{self, Object, Value};
use mcp_guard::mediate::Mediator;
use mcp_guard::pinning::{record_id, PinRecord};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub const USAGE: &str = "\
Usage:
  mcp-guard pins list [--pins DIR] [--format table|json]
  mcp-guard pins show SERVER [--pins DIR] [--format table|json]
  mcp-guard pins approve SERVER [TOOL...] [--pins DIR]
  mcp-guard pins forget SERVER [TOOL...] [--pins DIR]

The pin records `mcp-guard proxy` keeps across runs, one per server: the
approved tool definitions and, per tool, a changed or new definition the
proxy held back (quarantine) or flagged (warn) and nobody approved yet.

  list      every record: server, its serverInfo, approved and pending tools
  show      one record: the approved tools and each pending change, with
            the places where it differs and the old and new values
  approve   approve the pending definitions of the named tools (all when no
            TOOL is given); the next run of the proxy serves them
  forget    forget the named tools (they come back as new, to approve), or
            the whole record when no TOOL is given (the next run trusts the
            server on first use again)

SERVER is the proxy's --server ID, or its key as `pins list` shows it
(stdio:[\"cmd\",\"arg\",...] for a proxy run without --server), or at least 8
leading characters of the record id `pins list` shows.

Options:
  --pins DIR             the record directory (default: $XDG_STATE_HOME/mcp-guard/pins,
                         else ~/.local/state/mcp-guard/pins)
  --format FORMAT        table|json (list, show; default: table)
  -h, --help             this help

Exit codes: 0 ok (show: nothing pending), 1 show: something is pending,
2 unusable record, unknown server or tool, or command line.
";

/// The proxy's `--pins DIR` and `--pin-scope` (parsed by proxy/mod.rs).
#[derive(Default)]
pub struct ProxyPins {
    pub dir: Option<String>,
    /// `--pin-scope session`: per-session pins, no store (the behaviour
    /// before pin records).
    pub session_only: bool,
}

/// A directory of pin records.
pub struct Store {
    dir: PathBuf,
}

fn io_failure(what: &str, path: &Path, e: io::Error) -> Failure {
    Failure::Unusable { message: format!("{what} {}: {e}", term::escape(&path.display().to_string())), kind: "io" }
}

impl Store {
    /// `--pins DIR`, else the user's state directory (XDG base directories:
    /// only an absolute `$XDG_STATE_HOME` counts).
    pub fn open(dir: Option<&str>) -> Result<Store, Failure> {
        if let Some(d) = dir {
            return Ok(Store { dir: PathBuf::from(d) });
        }
        let env = |k: &str| std::env::var_os(k).map(PathBuf::from).filter(|p| p.is_absolute());
        let base = match (env("XDG_STATE_HOME"), env("HOME")) {
            (Some(s), _) => s,
            (None, Some(h)) => h.join(".local/state"),
            (None, None) => {
                return Err(Failure::Plain(
                    "no directory for pin records: set --pins DIR, XDG_STATE_HOME or HOME (or --pin-scope session)".into(),
                ))
            }
        };
        Ok(Store { dir: base.join("mcp-guard").join("pins") })
    }

    pub fn path_for(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{}.json", record_id(key)))
    }

    /// The stored text for `key` (`None`: no record yet).
    pub fn load(&self, key: &str) -> Result<Option<String>, Failure> {
        let path = self.path_for(key);
        match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| Failure::Unusable { message: unusable(&path, "not UTF-8"), kind: "invalid-baseline" }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_failure("cannot read pin record", &path, e)),
        }
    }

    /// Writes `text` as the record of `key`: a temporary file in the same
    /// directory, synced, renamed over the old record (atomic on POSIX).
    pub fn save(&self, key: &str, text: &str) -> io::Result<PathBuf> {
        create_private_dir(&self.dir)?;
        let path = self.path_for(key);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let tmp = self.dir.join(format!(".{}.{}-{nanos:x}.tmp", record_id(key), std::process::id()));
        let written = (|| {
            let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.write_all(b"\n")?;
            f.sync_all()?;
            std::fs::rename(&tmp, &path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written?;
        // The rename itself is durable once the directory is synced.
        if let Ok(d) = std::fs::File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(path)
    }

    /// Every record file (`<64 hex>.json`), sorted by name.
    fn files(&self) -> Result<Vec<PathBuf>, Failure> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_failure("cannot read the pin directory", &self.dir, e)),
        };
        let mut v: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(is_record_name))
            .collect();
        v.sort();
        Ok(v)
    }

    /// The file of `server`: the record of that key if there is one, else
    /// the one record whose id starts with `server` (at least 8 characters).
    fn find(&self, server: &str) -> Result<PathBuf, Failure> {
        let exact = self.path_for(server);
        if exact.exists() {
            return Ok(exact);
        }
        let prefix = server.to_ascii_lowercase();
        let hits: Vec<PathBuf> = if prefix.len() >= 8 && prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
            self.files()?.into_iter().filter(|p| id_of(p).starts_with(&prefix)).collect()
        } else {
            Vec::new()
        };
        match hits.len() {
            1 => Ok(hits.into_iter().next().unwrap_or(exact)),
            0 => Err(Failure::Unusable {
                message: format!(
                    "no pin record for server {} in {} (see `mcp-guard pins list`)",
                    term::escape(server),
                    term::escape(&self.dir.display().to_string())
                ),
                kind: "unknown-server",
            }),
            n => Err(Failure::Unusable {
                message: format!("{n} records start with {}: give more of the id", term::escape(server)),
                kind: "ambiguous-server",
            }),
        }
    }
}

fn is_record_name(n: &str) -> bool {
    n.len() == 69 && n.ends_with(".json") && n[..64].bytes().all(|b| b.is_ascii_hexdigit())
}

fn id_of(p: &Path) -> String {
    p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string()
}

/// The record directory is the user's alone (it decides what a client may
/// call).
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

fn unusable(path: &Path, why: &str) -> String {
    format!(
        "pin record {} is unusable ({why}); it is kept as it is: inspect it, or remove it with `mcp-guard pins forget SERVER` to trust the server on first use again",
        path.display()
    )
}

fn read_record(path: &Path) -> Result<PinRecord, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
        io::ErrorKind::InvalidData => Failure::Unusable { message: unusable(path, "not UTF-8"), kind: "invalid-baseline" },
        _ => io_failure("cannot read pin record", path, e),
    })?;
    PinRecord::from_json(&text)
        .map_err(|e| Failure::Unusable { message: unusable(path, &e.to_string()), kind: "invalid-baseline" })
}

// ---- the proxy's hook --------------------------------------------------------

/// Where the proxy writes its record (`Out::Persist`).
pub struct Saver {
    store: Store,
    key: String,
}

impl Saver {
    /// Writes the record; a failure is the caller's to log (the run goes
    /// on: the approved pins on disk are unchanged, so the next run still
    /// holds back what this one did).
    pub fn save(&self, text: &str) -> Result<PathBuf, String> {
        self.store.save(&self.key, text).map_err(|e| format!("cannot write pin record {}: {e}", self.path().display()))
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn path(&self) -> PathBuf {
        self.store.path_for(&self.key)
    }
}

/// The policy the proxy runs with a store: `core.tool_definition_pinning.mode`
/// defaults to `quarantine` when the policy does not set it. Across runs a
/// `warn` annotation is text the model reads and the user does not; the
/// changed description is exactly the rug pull's payload, so it stays out of
/// the model's context until a person approves it, while unchanged tools
/// keep working. A mode the policy sets (core or a `servers[]` entry) wins.
pub fn store_policy(loaded: LoadedPolicy) -> Result<LoadedPolicy, Failure> {
    let json = mcp_guard::pinning::record_policy(&loaded.json);
    if json == loaded.json {
        return Ok(loaded);
    }
    let compiled = mcp_guard::Policy::from_json(&json).map_err(Failure::engine)?;
    Ok(LoadedPolicy { compiled, json })
}

/// Loads the record of the server the proxy runs into `m` (persistent
/// scope); `None` for `--pin-scope session`.
pub fn attach(m: Mediator, pins: &ProxyPins, key: &str) -> Result<(Mediator, Option<Saver>), Failure> {
    if pins.session_only {
        return Ok((m, None));
    }
    let store = Store::open(pins.dir.as_deref())?;
    let stored = store.load(key)?;
    let path = store.path_for(key);
    let m = m
        .with_record(key, stored.as_deref())
        .map_err(|e| Failure::Unusable { message: unusable(&path, &e.to_string()), kind: e.kind() })?;
    Ok((m, Some(Saver { store, key: key.to_string() })))
}

// ---- `mcp-guard pins` --------------------------------------------------------

pub fn run(mut a: Args) -> Result<u8, Failure> {
    a.set_command("pins");
    let mut dir = None;
    let mut as_json = false;
    let mut values = Vec::new();
    while let Some(tok) = a.next()? {
        match tok {
            Tok::Value(v) => values.push(v),
            Tok::Flag(f) => match f.as_str() {
                "-h" | "--help" => return print_out(USAGE, EXIT_OK),
                "--pins" => dir = Some(a.value()?),
                "--format" => as_json = a.choice(&["table", "json"])? == "json",
                _ => return Err(a.error(format!("unknown option {f}")).into()),
            },
        }
    }
    let mut values = values.into_iter();
    let Some(action) = values.next() else { return Err(a.error("missing list, show, approve or forget").into()) };
    let store = Store::open(dir.as_deref())?;
    let server = values.next();
    let tools: Vec<String> = values.collect();
    let need_server = |s: Option<String>| s.ok_or_else(|| Failure::from(a.error(format!("`pins {action}` needs SERVER"))));
    match action.as_str() {
        "list" => {
            if let Some(extra) = server {
                return Err(a.error(format!("unexpected argument {extra:?}")).into());
            }
            list(&store, as_json)
        }
        "show" => {
            let server = need_server(server)?;
            if let Some(extra) = tools.first() {
                return Err(a.error(format!("unexpected argument {extra:?}")).into());
            }
            let path = store.find(&server)?;
            let r = read_record(&path)?;
            let text = if as_json { show_json(&path, &r) } else { show_table(&path, &r) };
            print_out(&text, if r.pending.is_empty() { EXIT_OK } else { EXIT_FINDINGS })
        }
        "approve" => {
            let path = store.find(&need_server(server)?)?;
            let mut r = read_record(&path)?;
            if r.pending.is_empty() {
                return print_out(&format!("nothing is pending for {}\n", term::escape(&r.key)), EXIT_OK);
            }
            let done = r.approve(&tools).map_err(|e| Failure::Unusable { message: e.to_string(), kind: "not-pending" })?;
            store.save(&r.key, &r.to_json()).map_err(|e| io_failure("cannot write pin record", &path, e))?;
            let msg = format!(
                "approved {} for {}; the proxy serves {} from its next run\n",
                done.iter().map(|n| term::escape(n)).collect::<Vec<_>>().join(", "),
                term::escape(&r.key),
                if done.len() == 1 { "it" } else { "them" }
            );
            print_out(&msg, EXIT_OK)
        }
        "forget" => {
            let path = store.find(&need_server(server)?)?;
            if tools.is_empty() {
                // The whole record, read or not: this is how a corrupt one goes.
                std::fs::remove_file(&path).map_err(|e| io_failure("cannot remove pin record", &path, e))?;
                let msg = format!("forgot {}; the next run trusts the server on first use\n", path.display());
                return print_out(&msg, EXIT_OK);
            }
            let mut r = read_record(&path)?;
            let done = r.forget(&tools).map_err(|e| Failure::Unusable { message: e.to_string(), kind: "unknown-tool" })?;
            store.save(&r.key, &r.to_json()).map_err(|e| io_failure("cannot write pin record", &path, e))?;
            let msg = format!(
                "forgot {} for {}; listed again, {} new and wait for approval\n",
                done.iter().map(|n| term::escape(n)).collect::<Vec<_>>().join(", "),
                term::escape(&r.key),
                if done.len() == 1 { "it is" } else { "they are" }
            );
            print_out(&msg, EXIT_OK)
        }
        other => Err(a.error(format!("unknown pins action {other:?} (list, show, approve, forget)")).into()),
    }
}

fn info_text(r: &PinRecord) -> String {
    match &r.server_info {
        None => "-".to_string(),
        Some(i) => match &i.version {
            Some(v) => format!("{} {}", i.name, v),
            None => i.name.clone(),
        },
    }
}

fn list(store: &Store, as_json: bool) -> Result<u8, Failure> {
    let mut rows = Vec::new();
    let mut bad = false;
    for p in store.files()? {
        let r = read_record(&p);
        bad |= r.is_err();
        rows.push((id_of(&p), r));
    }
    let text = if as_json {
        let items = rows.iter().map(|(id, r)| {
            let mut o = Object::new();
            o.insert("id", Value::str(id.clone()));
            match r {
                Ok(r) => {
                    o.insert("key", Value::str(r.key.clone()));
                    o.insert("server_info", r.server_info_value());
                    o.insert("approved", names(r.approved.pins.iter().map(|p| p.name.as_str())));
                    o.insert("pending", names(r.pending.iter().map(|p| p.pin.name.as_str())));
                }
                Err(Failure::Unusable { message, .. }) => o.insert("error", Value::str(message.clone())),
                Err(_) => o.insert("error", Value::str("unreadable")),
            }
            Value::Object(o)
        });
        let mut root = Object::new();
        root.insert("dir", Value::str(store.dir.display().to_string()));
        root.insert("records", Value::Array(items.collect()));
        let mut t = json::write_pretty(&Value::Object(root));
        t.push('\n');
        t
    } else {
        let mut t = format!("pin records in {}: {}\n", term::escape(&store.dir.display().to_string()), rows.len());
        for (id, r) in &rows {
            match r {
                Ok(r) => t.push_str(&format!(
                    "  {}  {}  ({})  {} approved, {} pending\n",
                    &id[..12],
                    term::escape(&r.key),
                    term::escape(&info_text(r)),
                    r.approved.pins.len(),
                    r.pending.len()
                )),
                Err(_) => t.push_str(&format!("  {}  unusable (see `mcp-guard pins show {}`)\n", &id[..12], &id[..12])),
            }
        }
        t
    };
    print_out(&text, if bad { crate::EXIT_UNUSABLE } else { EXIT_OK })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> Value {
    let mut v: Vec<&str> = it.collect();
    v.sort_unstable();
    Value::Array(v.into_iter().map(Value::str).collect())
}

/// A value for a person, one line, bounded.
fn short(v: Option<&Value>) -> String {
    let Some(v) = v else { return "(absent)".to_string() };
    let text = match v {
        Value::String(s) => s.to_string(),
        other => json::write_compact(other),
    };
    let mut out: String = text.chars().take(300).collect();
    if text.chars().count() > 300 {
        out.push('…');
    }
    term::escape(&out)
}

fn show_table(path: &Path, r: &PinRecord) -> String {
    let mut t = format!(
        "{}\n  server info (reported by the server): {}\n  record: {}\n",
        term::escape(&r.key),
        term::escape(&info_text(r)),
        term::escape(&path.display().to_string())
    );
    let mut approved: Vec<&str> = r.approved.pins.iter().map(|p| p.name.as_str()).collect();
    approved.sort_unstable();
    t.push_str(&format!("  approved ({}): {}\n", approved.len(), approved.iter().map(|n| term::escape(n)).collect::<Vec<_>>().join(", ")));
    if r.pending.is_empty() {
        t.push_str("  pending: none\n");
        return t;
    }
    t.push_str(&format!("  pending ({}), approve with `mcp-guard pins approve {} [TOOL...]`:\n", r.pending.len(), &id_of(path)[..12]));
    for p in &r.pending {
        t.push_str(&format!("    {:<8} {}\n", p.kind.id(), term::escape(&p.pin.name)));
        let (changes, truncated) = r.pending_changes(p);
        let old = r.approved.pin(&p.pin.name).map(|x| &x.def);
        for ch in &changes {
            t.push_str(&format!("             {:<9} {}\n", ch.kind.id(), term::escape(&ch.pointer)));
            let before = old.and_then(|v| json::pointer_get(v, &ch.pointer));
            t.push_str(&format!("               - {}\n", short(before)));
            t.push_str(&format!("               + {}\n", short(json::pointer_get(&p.pin.def, &ch.pointer))));
        }
        if truncated {
            t.push_str("             …\n");
        }
        if changes.is_empty() {
            let desc = json::pointer_get(&p.pin.def, "/description");
            t.push_str(&format!("             description: {}\n", short(desc)));
        }
    }
    t
}

fn show_json(path: &Path, r: &PinRecord) -> String {
    let mut v = r.review_value();
    if let Some(o) = v.as_object_mut() {
        o.insert("file", Value::str(path.display().to_string()));
    }
    let mut t = json::write_pretty(&v);
    t.push('\n');
    t
}
