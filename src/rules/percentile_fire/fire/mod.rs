//! One fire attack: its zone and chart row (`zone`), its modifiers in the
//! order they apply (`factors`), and the Fire Routine that rolls and reads
//! the chart (`routine`). Umpire calls and turns set attacks up their own
//! way and resolve them here alike.

pub mod effect;
pub mod factors;
pub mod routine;
pub mod zone;

/// Why a fire attack may not be made, with the clause that forbids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    pub problem: String,
    pub clause: &'static str,
    /// The units the problem names, by id, so that whoever is told of it
    /// is judged by them (a friend in the field of fire, the nearer enemy
    /// the hierarchy calls for).
    pub naming: Vec<String>,
}

impl Forbidden {
    pub fn new(problem: impl Into<String>, clause: &'static str) -> Forbidden {
        Forbidden {
            problem: problem.into(),
            clause,
            naming: Vec::new(),
        }
    }

    /// The same, naming `ids` in its problem.
    pub fn naming<S: AsRef<str>>(mut self, ids: &[S]) -> Forbidden {
        self.naming
            .extend(ids.iter().map(|id| id.as_ref().to_string()));
        self
    }
}
