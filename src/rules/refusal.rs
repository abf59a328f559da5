//! Why an order, a step of one or an umpire call may not be carried out,
//! before the line it came from is known: the problem in words, the clause
//! or ruling that forbids it, and the units the problem names. Every
//! ruleset refuses in this one shape, so that checking, resolving and the
//! umpire's calls turn a refusal into a player's rejection, a turn's event
//! or a GM's error alike.

use super::orders::Rejection;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub problem: String,
    /// The rule that forbids it, as told to the player, e.g.
    /// `Charging: "Shaken units cannot charge."` or `ruling GT-11`.
    pub clause: Option<String>,
    /// The units the problem names, by id, so that what is told of it is
    /// decided by who sees them, not by its words.
    pub naming: Vec<String>,
}

impl Refusal {
    /// A refusal citing `clause` as it stands.
    pub fn new(problem: impl Into<String>, clause: impl Into<String>) -> Refusal {
        Refusal {
            problem: problem.into(),
            clause: Some(clause.into()),
            naming: Vec::new(),
        }
    }

    /// A refusal no single clause states (a unit that does not exist, a
    /// formation with no footprint).
    pub fn plain(problem: impl Into<String>) -> Refusal {
        Refusal {
            problem: problem.into(),
            clause: None,
            naming: Vec::new(),
        }
    }

    /// A refusal quoting `sentence` of the text's `section`:
    /// `Charging: "…"`.
    pub fn quoting(problem: impl Into<String>, section: &str, sentence: &str) -> Refusal {
        Refusal::new(problem, format!("{section}: \"{sentence}\""))
    }

    /// A refusal citing one of adjutant's rulings, e.g. `GT-11`.
    pub fn ruling(problem: impl Into<String>, ruling: &str) -> Refusal {
        Refusal::new(problem, format!("ruling {ruling}"))
    }

    /// The same, its problem naming unit `id`.
    pub fn naming(mut self, id: &str) -> Refusal {
        self.naming.push(id.to_string());
        self
    }

    /// The same, its problem naming each of `ids`.
    pub fn naming_all<S: AsRef<str>>(mut self, ids: &[S]) -> Refusal {
        self.naming
            .extend(ids.iter().map(|id| id.as_ref().to_string()));
        self
    }

    /// The clause, or nothing where none is cited.
    pub fn cited(&self) -> &str {
        self.clause.as_deref().unwrap_or_default()
    }

    /// The player's rejection of line `line`, about `unit` if it names one.
    pub fn at(self, line: usize, unit: Option<String>) -> Rejection {
        Rejection {
            line,
            unit,
            problem: self.problem,
            clause: self.clause,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_sentence_and_a_ruling_are_cited_as_players_read_them() {
        let q = Refusal::quoting("it is shaken", "Charging", "Shaken units cannot charge.");
        assert_eq!(q.cited(), "Charging: \"Shaken units cannot charge.\"");
        let r = Refusal::ruling("it is not an enemy unit", "GT-11");
        assert_eq!(r.cited(), "ruling GT-11");
        assert_eq!(Refusal::plain("no such unit").cited(), "");
    }

    #[test]
    fn the_units_named_are_kept_in_order_and_reach_no_rejection_words() {
        let r = Refusal::new("a friend is in the way", "11.3")
            .naming("b")
            .naming_all(&["a", "c"]);
        assert_eq!(r.naming, ["b", "a", "c"]);
        let rejection = r.at(4, Some("x".into()));
        assert_eq!(rejection.line, 4);
        assert_eq!(rejection.problem, "a friend is in the way");
        assert_eq!(rejection.clause.as_deref(), Some("11.3"));
    }
}
