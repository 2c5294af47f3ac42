//! Fuzz target for the engine's input: proptest mutates the canonical configs in
//! `data/fuzz_bases.json` (what the scenario layer gives for scenarios that between them use
//! every queue, loss model and traffic kind; `tests/engine_fuzz_bases.py` at the repository root
//! regenerates them) and hands them to `sim_from_json`, as the Python binding does.
//!
//! Whatever the input, the engine either refuses it with an error or runs it: no panic, no
//! abort, and a run that reaches its end passes the engine's own end-of-run checks (`summary`:
//! every packet delivered, dropped or in flight). A mutated duration or rate cannot hang the test:
//! each run stops after `STOP_CHECKS` × `STOP_CHECK_EVENTS` events.
//!
//! CI runs `DEFAULT_CASES` cases from a fixed seed; explore further with
//! `PROPTEST_CASES=20000 PROPTEST_RNG_SEED=random cargo test --release -p tcpsim-core --test engine_json_fuzz`
//! (a number as the seed replays a run).

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{json, Value};

const BASES: &str = include_str!("data/fuzz_bases.json");
const DEFAULT_CASES: u32 = 512;
/// Stop checks before a run is cut: 16 × 16 384 events.
const STOP_CHECKS: u32 = 16;

/// One step into a JSON tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// What a mutation does to the node it picks.
#[derive(Clone, Debug)]
enum Mutation {
    /// Put this value in its place.
    Replace(Value),
    /// Put this number in the place of a number (the picks go over numbers only).
    Number(Value),
    /// Multiply a number (anything else is left alone).
    Scale(f64),
    /// Take it out of its object or array.
    Remove,
    /// Append copies of it to its array (more flows, links, loss models, …).
    Repeat(u8),
}

/// Any JSON value a mutation may put anywhere: the extreme numbers, other types, nesting.
fn hostile_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        extreme_number(),
        Just(json!(i64::MIN)),
        Just(json!(9_007_199_254_740_993u64)),
        Just(json!(-1e-308)),
        Just(Value::Null),
        Just(json!(true)),
        Just(json!("")),
        Just(json!("x".repeat(300))),
        Just(json!([])),
        Just(json!({})),
        Just(json!([[[[[[[[0]]]]]]]])),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e15..1e15f64).prop_map(|x| json!(x)),
        "\\PC{0,12}".prop_map(|s| json!(s)),
    ]
}

/// Numbers at and beyond the edges of the engine's integer and float fields.
fn extreme_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(-1)),
        Just(json!(u64::MAX)),
        Just(json!(u64::MAX / 2)),
        Just(json!(u64::from(u32::MAX))),
        Just(json!(u64::from(u32::MAX) + 1)),
        Just(json!(1e308)),
        Just(json!(0.5)),
        Just(json!(1.0 - 1e-16)),
        Just(json!(1e-300)),
        any::<u32>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (0.0..1.0f64).prop_map(|x| json!(x)),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => hostile_value().prop_map(Mutation::Replace),
        4 => extreme_number().prop_map(Mutation::Number),
        2 => prop_oneof![Just(0.0), Just(-1.0), Just(0.001), Just(2.0), Just(1e3), Just(1e9)].prop_map(Mutation::Scale),
        1 => Just(Mutation::Remove),
        1 => (1u8..20).prop_map(Mutation::Repeat),
    ]
}

/// The path of every node of `v`, root first.
fn paths(v: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(Step::Key(k.clone()));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(Step::Index(i));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(root, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// Apply `m` to the node numbered `pick` (modulo the node count) of `root`; `Number` and
/// `Scale` count numbers only.
fn apply(root: &mut Value, pick: usize, m: &Mutation) {
    let mut all = Vec::new();
    paths(root, &mut Vec::new(), &mut all);
    if matches!(m, Mutation::Number(_) | Mutation::Scale(_)) {
        let numbers: Vec<_> = all.into_iter().filter(|p| node_mut(root, p).is_some_and(|v| v.is_number())).collect();
        all = numbers;
        if all.is_empty() {
            return;
        }
    }
    let path = &all[pick % all.len()];
    match m {
        Mutation::Replace(value) | Mutation::Number(value) => {
            if let Some(node) = node_mut(root, path) {
                *node = value.clone();
            }
        }
        Mutation::Scale(factor) => {
            if let Some(node) = node_mut(root, path) {
                if let Some(x) = node.as_f64() {
                    let scaled = x * factor;
                    *node = if node.is_u64() && (0.0..1.8e19).contains(&scaled) {
                        json!(scaled as u64)
                    } else {
                        json!(scaled)
                    };
                }
            }
        }
        Mutation::Remove | Mutation::Repeat(_) => {
            let Some((last, parent_path)) = path.split_last() else { return };
            let Some(parent) = node_mut(root, parent_path) else { return };
            match (parent, last, m) {
                (Value::Object(map), Step::Key(k), Mutation::Remove) => {
                    map.remove(k);
                }
                (Value::Array(items), Step::Index(i), Mutation::Remove) => {
                    items.remove(*i);
                }
                (Value::Array(items), Step::Index(i), Mutation::Repeat(n)) => {
                    let copy = items[*i].clone();
                    items.extend(std::iter::repeat_n(copy, usize::from(*n)));
                }
                _ => {}
            }
        }
    }
}

/// The property: refused with an error, or run (cut at the event budget) without a panic, and
/// if it ended, its end-of-run checks pass. Counts the configs the engine accepted.
fn engine_survives(config: &str, accepted: &Cell<u32>) -> Result<(), TestCaseError> {
    let Ok(mut sim) = tcpsim_core::sim_from_json(config, 1, None) else { return Ok(()) };
    accepted.set(accepted.get() + 1);
    let mut checks = 0;
    let finished = sim.run_unless_stopped(|| {
        checks += 1;
        checks >= STOP_CHECKS
    });
    if finished {
        sim.summary().map_err(|e| TestCaseError::fail(format!("an accepted config broke an invariant: {e}")))?;
    }
    Ok(())
}

#[test]
fn the_fuzz_bases_are_accepted_and_run_clean() {
    let bases: Vec<Value> = serde_json::from_str(BASES).expect("fuzz_bases.json is JSON");
    for (i, base) in bases.iter().enumerate() {
        let mut sim = tcpsim_core::sim_from_json(&base.to_string(), 1, None)
            .unwrap_or_else(|e| panic!("base {i} is refused (regenerate fuzz_bases.json): {e}"));
        sim.run();
        sim.summary().unwrap_or_else(|e| panic!("base {i}: {e}"));
    }
}

#[test]
fn mutated_configs_are_refused_or_run_without_a_panic() {
    let bases: Vec<Value> = serde_json::from_str(BASES).expect("fuzz_bases.json is JSON");
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_CASES);
    // A fixed seed in CI, so that a failure there is one anyone can replay; PROPTEST_RNG_SEED
    // (a number; anything else picks one at random) explores other inputs.
    let defaults = Config::default();
    let rng_seed =
        if std::env::var_os("PROPTEST_RNG_SEED").is_some() { defaults.rng_seed } else { RngSeed::Fixed(2024) };
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, rng_seed, ..defaults });
    let strategy = (0..bases.len(), prop::collection::vec((any::<usize>(), mutation()), 1..4));
    let accepted = Cell::new(0);
    let outcome = runner.run(&strategy, |(base, mutations)| {
        let mut config = bases[base].clone();
        for (pick, m) in &mutations {
            apply(&mut config, *pick, m);
        }
        engine_survives(&config.to_string(), &accepted)
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    // A fuzzer whose inputs the parser all refuses tests only the parser.
    assert!(accepted.get() * 10 >= cases, "only {} of {cases} mutated configs were accepted", accepted.get());
}
