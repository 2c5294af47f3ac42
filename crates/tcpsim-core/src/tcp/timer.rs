//! A lazily re-armed timer (the sender's retransmission timer, the receiver's delayed-ACK
//! timer): the simulator has no event cancellation, so a timer keeps at most one pending
//! event and recognizes stale ones by their generation.

/// A lazily re-armed timer: at most one pending event; moving the deadline later costs
/// nothing, moving it earlier schedules a new event and makes the old one stale.
#[derive(Default)]
pub(crate) struct Timer {
    deadline_ns: Option<u64>,
    event_at_ns: Option<u64>,
    generation: u32,
}

impl Timer {
    /// Arm at `deadline`; returns the (time, generation) of an event to schedule, if needed.
    pub(crate) fn arm(&mut self, deadline: u64) -> Option<(u64, u32)> {
        self.deadline_ns = Some(deadline);
        match self.event_at_ns {
            Some(at) if at <= deadline => None,
            _ => {
                self.generation = self.generation.wrapping_add(1);
                self.event_at_ns = Some(deadline);
                Some((deadline, self.generation))
            }
        }
    }

    pub(crate) fn cancel(&mut self) {
        self.deadline_ns = None;
    }

    pub(crate) fn is_armed(&self) -> bool {
        self.deadline_ns.is_some()
    }

    /// The scheduled event fired. `Ok(true)`: the timer expired; `Ok(false)`: nothing to
    /// do; `Err(t)`: the deadline moved later, schedule again at `t` with the same generation.
    pub(crate) fn fire(&mut self, generation: u32, now: u64) -> Result<bool, u64> {
        if generation != self.generation {
            return Ok(false);
        }
        self.event_at_ns = None;
        match self.deadline_ns {
            None => Ok(false),
            Some(d) if d > now => {
                self.event_at_ns = Some(d);
                Err(d)
            }
            Some(_) => {
                self.deadline_ns = None;
                Ok(true)
            }
        }
    }

    pub(crate) fn generation(&self) -> u32 {
        self.generation
    }

    /// An unarmed timer for a new connection in the same slot: it continues this one's
    /// generation count, so no event this timer left pending can match it once armed.
    pub(crate) fn successor(&self) -> Timer {
        Timer { deadline_ns: None, event_at_ns: None, generation: self.generation }
    }
}
