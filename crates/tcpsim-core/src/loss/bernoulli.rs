//! Uniform (Bernoulli) packet errors: every packet is lost independently with probability `p`
//! (the "uniform error model" of `gangadhar` Sec. 4 and `casetti` Sec. 5.1).

use crate::rng::RandomStream;

pub struct Bernoulli {
    p: f64,
    rng: RandomStream,
}

impl Bernoulli {
    pub fn new(p: f64, rng: RandomStream) -> Self {
        Bernoulli { p, rng }
    }

    #[inline]
    pub fn is_lost(&mut self) -> bool {
        self.rng.bernoulli(self.p)
    }
}
