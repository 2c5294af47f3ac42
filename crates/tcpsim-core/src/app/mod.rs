//! Traffic sources: what drives TCP connections (ON/OFF schedules) and sources that are not
//! TCP connections (constant bit rate UDP).

pub mod cbr;
pub mod on_off;

#[cfg(test)]
mod tests;
