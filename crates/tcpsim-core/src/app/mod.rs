//! Traffic sources: what drives TCP connections (ON/OFF schedules, web-like generators of
//! finite transfers and their connection slots) and sources that are not TCP connections
//! (constant bit rate UDP).

pub mod cbr;
pub mod connections;
pub mod on_off;
pub mod web;

#[cfg(test)]
pub(crate) mod tests;
