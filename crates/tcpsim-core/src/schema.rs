//! The engine's input contract: the JSON Schema of the canonical scenario
//! ([`SimConfig`]), derived from `config/` and checked in as `engine-schema.json` beside
//! this crate's `Cargo.toml`. The Python layer's tests validate every canonical scenario it
//! emits against that file, so the two layers cannot drift apart. After changing
//! `config/`, regenerate it with `TCPSIM_UPDATE_SCHEMA=1 cargo test -p tcpsim-core schema`.

use crate::config::SimConfig;

/// The JSON Schema (draft 2020-12) of the canonical scenario, as pretty-printed JSON.
pub fn engine_schema_json() -> String {
    let schema = schemars::schema_for!(SimConfig);
    serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
}

#[cfg(test)]
mod tests {
    use super::engine_schema_json;

    #[test]
    fn the_checked_in_schema_is_the_one_config_rs_derives() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-schema.json");
        let derived = engine_schema_json();
        if std::env::var_os("TCPSIM_UPDATE_SCHEMA").is_some() {
            std::fs::write(path, &derived).expect("engine-schema.json is writable");
        }
        let stored = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            stored == derived,
            "{path} differs from what config/ derives: regenerate it with \
             TCPSIM_UPDATE_SCHEMA=1 cargo test -p tcpsim-core schema"
        );
    }
}
