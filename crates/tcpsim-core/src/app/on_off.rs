//! The ON/OFF schedule of a TCP source (`AppConfig::OnOff`): which interval the application
//! is in, so the run loop keeps one pending start or stop per flow rather than scheduling
//! every interval up front (a flow-count schedule compiles to many intervals per replica).
//!
//! At an interval's start the application supplies data again ([`TcpSender::start`]); at its
//! end it stops producing ([`TcpSender::stop`]): what was sent is still delivered and
//! retransmitted, and the connection (cwnd, ssthresh, RTT estimate) lives on into the next
//! interval, as an ns-2 FTP agent driven by `start`/`stop`.
//!
//! [`TcpSender::start`]: crate::tcp::TcpSender::start
//! [`TcpSender::stop`]: crate::tcp::TcpSender::stop

/// Sorted, disjoint ON intervals [start_ns, end_ns) and the one in progress or next.
#[derive(Default)]
pub struct OnOffSchedule {
    on: Vec<(u64, u64)>,
    current: usize,
}

impl OnOffSchedule {
    pub fn new(on: Vec<(u64, u64)>) -> Self {
        OnOffSchedule { on, current: 0 }
    }

    /// When the first interval begins (None: never on).
    pub fn first_start(&self) -> Option<u64> {
        self.on.first().map(|&(start, _)| start)
    }

    /// When the interval that has just begun ends (None for a source without a schedule).
    pub fn current_end(&self) -> Option<u64> {
        self.on.get(self.current).map(|&(_, end)| end)
    }

    /// The current interval has ended: move to the next and return when it begins.
    pub fn next_start(&mut self) -> Option<u64> {
        self.current += 1;
        self.on.get(self.current).map(|&(start, _)| start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_the_intervals_in_order() {
        let mut s = OnOffSchedule::new(vec![(10, 20), (20, 30), (50, 60)]);
        assert_eq!(s.first_start(), Some(10));
        assert_eq!(s.current_end(), Some(20));
        assert_eq!(s.next_start(), Some(20));
        assert_eq!(s.current_end(), Some(30));
        assert_eq!(s.next_start(), Some(50));
        assert_eq!(s.current_end(), Some(60));
        assert_eq!(s.next_start(), None);
    }

    #[test]
    fn an_empty_schedule_never_starts() {
        let mut s = OnOffSchedule::default();
        assert_eq!((s.first_start(), s.current_end(), s.next_start()), (None, None, None));
    }
}
