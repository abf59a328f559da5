//! The event kinds the map and the report know by name. Rulesets add kinds
//! as they grow; a kind not named here is still told (by its text) and its
//! units still drawn, only without the arrow or line of a known kind.

/// Shooting of any sort: the event names the firer first, then its targets.
pub fn is_fire(kind: &str) -> bool {
    matches!(
        kind,
        "shooting"
            | "fire"
            | "volley"
            | "bombardment"
            | "opportunity-fire"
            | "bounce-through"
            | "regimental-gun"
    ) || kind.contains("shoot")
}

/// Charges and their kin: the event names the charger first, then whom it
/// charges.
pub fn is_charge(kind: &str) -> bool {
    matches!(
        kind,
        "charge" | "countercharge" | "counter-charge" | "follow-up" | "pursuit"
    )
}

/// Moves away from the enemy that the player did not choose.
pub fn is_retreat(kind: &str) -> bool {
    matches!(
        kind,
        "retreat" | "rout" | "evade" | "fall-back" | "recoil" | "rout-move"
    )
}

/// Fighting in which both sides see each other, whatever the terrain.
pub fn is_contact(kind: &str) -> bool {
    is_charge(kind) || matches!(kind, "combat" | "melee" | "close-combat")
}
