//! How the turn's events put things in words.

use super::super::clauses;
use crate::rules::kernel::Modifier;

/// "A", "A and B", "A, B and C".
pub fn join(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The modifiers a roll took, as a report puts them after the sum: ` (+2
/// heavy cavalry charging, -1 across a ridge)`, nothing where there were
/// none. Each is told in a few words; the umpire's trace quotes its clause.
pub fn modifiers(list: &[Modifier]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let told: Vec<String> = list
        .iter()
        .map(|m| format!("{:+} {}", m.value, modifier(&m.reason)))
        .collect();
    format!(" ({})", told.join(", "))
}

/// One modifier in a few words, from the clause it was made with and what
/// was added to it in brackets (`(2 against 1)`, `(attacker M, defender B)`).
fn modifier(reason: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        (clauses::STREAM_SHOCK, "across the Smolka or Nigni Dubik"),
        (clauses::STEEP_SHOCK, "across a steep slope"),
        (clauses::RIDGE_SHOCK, "across a ridge"),
        (clauses::LEVEL_SHOCK, "all attacking from the lower level"),
        (clauses::LEVEL_CHARGE, "charging into the higher level"),
        (clauses::DRM_HEAVY, "heavy cavalry charging"),
        (clauses::DRM_MEDIUM, "medium cavalry charging"),
        (clauses::DRM_MOVED, "charging unit moved"),
        (clauses::DRM_DISORDERED, "attacker disordered"),
        (clauses::DRM_FLANK, "through the flank"),
        (clauses::DRM_REAR, "through the rear"),
        (
            clauses::DRM_COMBINATION,
            "through a combination of front, flank and rear",
        ),
        (
            clauses::DRM_RUSSIAN,
            "Russian heavy cavalry with its leader",
        ),
        (clauses::DRM_RETIRED, "defender retired"),
        (clauses::DRM_CONTINUED, "continued attacks"),
        (clauses::ANGLED, "angled fire at a horse unit"),
        (clauses::FIRER_DISORDERED, "disordered unit firing"),
        (clauses::AT_HEAVY, "firing at heavy cavalry"),
    ];
    if let Some((_, words)) = WORDS.iter().find(|(c, _)| reason.starts_with(c)) {
        return (*words).to_string();
    }
    let added = |clause: &str| {
        reason
            .strip_prefix(clause)
            .map(|rest| rest.trim().trim_start_matches('(').trim_end_matches(')'))
    };
    if let Some(rest) = added(clauses::DRM_LEADER) {
        return match rest {
            r if r.starts_with("defender") => "defender stacked with its leader".to_string(),
            _ => "attacker stacked with its leader".to_string(),
        };
    }
    if let Some(rest) = added(clauses::DRM_SHOCK) {
        // "the defender's +1"
        let drm = rest.rsplit(' ').next().unwrap_or_default();
        return format!("defender's Shock DRM of {drm}");
    }
    if let Some(rest) = added(clauses::DRM_STRENGTH) {
        // "2 against 1"
        return format!("strength advantage {}", rest.replace(" against ", " to "));
    }
    if let Some(rest) = added(clauses::DRM_MATRIX) {
        // "attacker M, defender B"
        let pair = rest
            .replace("attacker ", "")
            .replace(", defender ", " against ");
        return format!("weapons {pair}");
    }
    if let Some(rest) = reason.strip_prefix(clauses::RANGE_DRM) {
        // ": Bowman, range 1 hex"
        return rest
            .trim_start_matches(':')
            .trim()
            .replace(", range ", " at ");
    }
    reason.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_modifier_is_told_in_a_few_words() {
        let list = [
            Modifier::new(clauses::DRM_HEAVY, 2),
            Modifier::new(
                format!("{} (attacker stacked with its leader)", clauses::DRM_LEADER),
                1,
            ),
            Modifier::new(
                format!("{} (defender stacked with its leader)", clauses::DRM_LEADER),
                -1,
            ),
            Modifier::new(format!("{} (the defender's +1)", clauses::DRM_SHOCK), -1),
            Modifier::new(format!("{} (2 against 1)", clauses::DRM_STRENGTH), 1),
            Modifier::new(
                format!("{} (attacker M, defender B)", clauses::DRM_MATRIX),
                3,
            ),
            Modifier::new(format!("{}: Bowman, range 1 hex", clauses::RANGE_DRM), 1),
        ];
        assert_eq!(
            modifiers(&list),
            " (+2 heavy cavalry charging, +1 attacker stacked with its leader, -1 defender \
             stacked with its leader, -1 defender's Shock DRM of +1, +1 strength advantage 2 to 1, \
             +3 weapons M against B, +1 Bowman at 1 hex)"
        );
        assert_eq!(modifiers(&[]), "");
    }

    /// No modifier a fire or a combat can take is told by quoting its
    /// clause whole, the fallback for a clause this module does not know.
    #[test]
    fn no_modifier_falls_back_to_its_clause() {
        for clause in [
            clauses::STREAM_SHOCK,
            clauses::STEEP_SHOCK,
            clauses::RIDGE_SHOCK,
            clauses::LEVEL_SHOCK,
            clauses::LEVEL_CHARGE,
            clauses::DRM_MEDIUM,
            clauses::DRM_MOVED,
            clauses::DRM_DISORDERED,
            clauses::DRM_FLANK,
            clauses::DRM_REAR,
            clauses::DRM_COMBINATION,
            clauses::DRM_RUSSIAN,
            clauses::DRM_RETIRED,
            clauses::ANGLED,
            clauses::FIRER_DISORDERED,
            clauses::AT_HEAVY,
        ] {
            let told = modifier(clause);
            assert!(!told.contains('"') && !told.contains(':'), "{told}");
        }
        assert_eq!(
            modifier(&format!("{} (2 so far)", clauses::DRM_CONTINUED)),
            "continued attacks"
        );
    }
}
