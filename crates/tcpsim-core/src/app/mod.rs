//! Traffic sources that are not TCP connections.

pub mod cbr;
