//! The terrain kinds the chapter's fire reads, as a [`TerrainKind`] that
//! [`Table`](super::field::Table) reads each area's kind into once per
//! state, so that the rules match on kinds the compiler knows. What a kind
//! does to cover and sight is the campaign's terrain table
//! ([`Params::terrain_effect`](super::params::Params::terrain_effect)),
//! keyed by the kind's word.

crate::terrain_kinds! {
    /// Terrain: the kinds the chapter's fire reads (cover, sight, buildings
    /// of Class I, II or III, redoubts, hills with their crest lines).
    pub enum TerrainKind {
        LightWoods = "light-woods",
        HeavyWoods = "heavy-woods",
        Hill = "hill",
        /// A hill's crest line, which blocks sight.
        Crest = "crest",
        /// A building of Class I.
        Building1 = "building-1",
        /// A building of Class II.
        Building2 = "building-2",
        /// A building of Class III.
        Building3 = "building-3",
        Redoubt = "redoubt",
        River = "river",
        Road = "road",
        Rough = "rough",
        Marsh = "marsh",
    }
}

impl TerrainKind {
    /// A building of Class I, II or III.
    pub fn is_building(self) -> bool {
        matches!(
            self,
            TerrainKind::Building1 | TerrainKind::Building2 | TerrainKind::Building3
        )
    }
}
