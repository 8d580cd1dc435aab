//! The credit manager of §4.1.3: a bank that issues a fixed supply, one account per app and
//! the provider's revenue account. Every transfer moves credits, so the total is conserved,
//! and no transfer may overdraw an account.

use serde::{Deserialize, Serialize};

/// Accounts and their balances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// Credits not yet granted.
    pub bank: f64,
    /// Credits paid for resources.
    pub provider: f64,
    /// Balance of each app.
    pub accounts: Vec<f64>,
    /// The supply issued at creation: `bank + provider + Σ accounts` must stay equal to it.
    pub supply: f64,
}

impl Ledger {
    /// A ledger whose bank holds `supply` and `apps` empty accounts.
    pub fn new(supply: f64, apps: usize) -> Self {
        Ledger {
            bank: supply,
            provider: 0.0,
            accounts: vec![0.0; apps],
            supply,
        }
    }

    /// Grants up to `amount` from the bank to app `a`; returns what was granted.
    pub fn grant(&mut self, a: usize, amount: f64) -> f64 {
        let g = amount.min(self.bank).max(0.0);
        self.bank -= g;
        self.accounts[a] += g;
        g
    }

    /// Charges app `a` up to `amount` for resources; returns what was charged.
    pub fn charge(&mut self, a: usize, amount: f64) -> f64 {
        let c = amount.min(self.accounts[a]).max(0.0);
        self.accounts[a] -= c;
        self.provider += c;
        c
    }

    /// `bank + provider + Σ accounts − supply` (zero up to rounding).
    pub fn imbalance(&self) -> f64 {
        self.bank + self.provider + self.accounts.iter().sum::<f64>() - self.supply
    }

    /// The smallest balance of any account (bank and provider included).
    pub fn min_balance(&self) -> f64 {
        self.accounts
            .iter()
            .copied()
            .fold(self.bank.min(self.provider), f64::min)
    }
}
