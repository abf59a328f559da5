//! The clauses of the rules text this ruleset carries out, each quoted once,
//! verbatim, with the table and row it comes from: refusals, umpire reports
//! and the case catalog cite them from here.

// ---- Terrain Effects ----

pub const CLEAR: &str = "Terrain Effects, Clear: \"1 MP\"";
pub const WOODS_MP: &str = "Terrain Effects, Woods: \"2 MP\"";
pub const WOODS_CHARGE: &str = "Terrain Effects, Woods, Charge Combat: \"Not allowed into\"";
pub const WOODS_FIRE: &str =
    "Terrain Effects, Woods, Missile Fire: \"May fire into but not through\"";
pub const NEPRAVDA_MOVE: &str = "Terrain Effects, Nepravda River: \"Uncrossable\"";
pub const NEPRAVDA_SHOCK: &str = "Terrain Effects, Nepravda River, Shock Combat: \"Not allowed\"";
pub const NEPRAVDA_CHARGE: &str = "Terrain Effects, Nepravda River, Charge Combat: \"Not allowed\"";
pub const STREAM_MP: &str =
    "Terrain Effects, Smolka River and River Nigni Dubik: \"+1 MP to cross hex side\"";
pub const STREAM_SHOCK: &str =
    "Terrain Effects, Smolka River and River Nigni Dubik, Shock Combat: \"-1 across\"";
pub const STREAM_CHARGE: &str =
    "Terrain Effects, Smolka River and River Nigni Dubik, Charge Combat: \"Not allowed\"";
pub const LEVEL_MP: &str =
    "Terrain Effects, Level Change: \"+1 MP to move to lower or higher level\"";
pub const LEVEL_SHOCK: &str =
    "Terrain Effects, Level Change, Shock Combat: \"-1 if all attacking units on lower level\"";
pub const LEVEL_CHARGE: &str =
    "Terrain Effects, Level Change, Charge Combat: \"-1 into higher level\"";
pub const LEVEL_FIRE: &str =
    "Terrain Effects, Level Change, Missile Fire: \"Blocks LOS unless adjacent\"";
pub const STEEP_MP: &str =
    "Terrain Effects, Steep Slope: \"+1 MP to move to lower or higher level\"";
pub const STEEP_SHOCK: &str = "Terrain Effects, Steep Slope, Shock Combat: \"-2 across hex side\"";
pub const STEEP_CHARGE: &str = "Terrain Effects, Steep Slope, Charge Combat: \"Not allowed\"";
pub const STEEP_FIRE: &str =
    "Terrain Effects, Steep Slope, Missile Fire: \"Blocks LOS unless adjacent\"";
pub const RIDGE_MP: &str = "Terrain Effects, Ridge: \"No movement cost\"";
pub const RIDGE_SHOCK: &str = "Terrain Effects, Ridge, Shock Combat: \"-1 across hex side\"";
pub const RIDGE_FIRE: &str = "Terrain Effects, Ridge, Missile Fire: \"Blocks LOS unless adjacent\"";
pub const CLIFF_MOVE: &str =
    "Terrain Effects, Cliff: \"Uncrossable Eliminated if forced to retreat across\"";
pub const CLIFF_SHOCK: &str = "Terrain Effects, Cliff, Shock Combat: \"Not allowed\"";
pub const CLIFF_CHARGE: &str = "Terrain Effects, Cliff, Charge Combat: \"Not allowed\"";
pub const CLIFF_FIRE: &str = "Terrain Effects, Cliff, Missile Fire: \"Blocks LOS unless adjacent\"";
pub const ZOC_FIRE: &str =
    "Terrain Effects, Enemy ZOC: \"+1 MP for Light Cavalry to Missile Fire\"";
pub const ZOC_CHARGE: &str =
    "Terrain Effects, Enemy ZOC, Charge Combat: \"Cannot have started activation within\"";

// ---- Missile Fire ----

pub const MISSILE_RESULTS: &str = "Missile Fire Results";
pub const RANGE_DRM: &str = "Range Die Roll Modifiers";
pub const ANGLED: &str =
    "Missile Fire, Die Roll Modifiers: \"+1 Angled fire at Horse Unit (9.3.1)\"";
pub const FIRER_DISORDERED: &str = "Missile Fire, Die Roll Modifiers: \"1 Disordered unit Firing\"";
pub const AT_HEAVY: &str = "Missile Fire, Die Roll Modifiers: \"1 Firing at Heavy Cavalry\"";
pub const DEATH_OF_LEADER: &str =
    "Missile Fire: \"On DR of 9+ with Leader in hex, check for Death of Leader (see 13.3)\"";

// ---- Shock and Charge ----

pub const SHOCK_RESULTS: &str = "Shock Combat Results No Charge";
pub const CHARGE_RESULTS: &str = "Charge Results";
pub const MATRIX: &str = "Weapons System Matrix for Shock & Charge";
pub const NO_SHOCK: &str =
    "Weapons System Matrix: \"Bowman (B) and Crossbow (C) may not Shock Attack or Charge.\"";
pub const NO_CHARGE_L: &str = "Weapons System Matrix: \"Light Cavalry (L) may not Charge.\"";
pub const RELUCTANCE: &str = "Charge Reluctance Die Roll";
pub const RELUCTANCE_M: &str =
    "Charge Reluctance Die Roll: \"Medium Cavalry (M) add one (+1) to this DR.\"";
pub const COUNTER_CHARGE: &str = "Counter-Charge Die Roll";
pub const COUNTER_SHOCK: &str =
    "Counter-Charge Die Roll: \"Add/subtract in Defending Unit's Shock DRM.\"";
pub const COUNTER_FLANK: &str =
    "Counter-Charge Die Roll: \"If being Charged through the flank, add one (+1) to the DR.\"";
pub const DRM_TERRAIN: &str =
    "Die Roll Modifiers for Shock or Charge: \"See Terrain Effects chart\"";
pub const DRM_LEADER: &str = "Die Roll Modifiers for Shock or Charge: \"+/-1 If subordinate unit stacked with its Leader or overall Leader\"";
pub const DRM_MEDIUM: &str =
    "Die Roll Modifiers for Shock or Charge: \"+1 Medium Cavalry Charging\"";
pub const DRM_HEAVY: &str = "Die Roll Modifiers for Shock or Charge: \"+2 Heavy Cavalry Charging\"";
pub const DRM_MOVED: &str =
    "Die Roll Modifiers for Shock or Charge: \"-1 Charging unit moved during activation\"";
pub const DRM_SHOCK: &str = "Die Roll Modifiers for Shock or Charge: \"+/- Defender's Shock DRM\"";
pub const DRM_DISORDERED: &str =
    "Die Roll Modifiers for Shock or Charge: \"-2 Attacker is Disordered Shock only\"";
pub const DRM_STRENGTH: &str = "Die Roll Modifiers for Shock or Charge: \"+/- Strength Advantage Compare number of units on each side\"";
pub const DRM_FLANK: &str = "Die Roll Modifiers for Shock or Charge: \"+2 Any attacking units are attacking through a defender's Flank\"";
pub const DRM_REAR: &str = "Die Roll Modifiers for Shock or Charge: \"+3 Any attacking units are attacking through a Defender's Rear\"";
pub const DRM_COMBINATION: &str = "Die Roll Modifiers for Shock or Charge: \"+4 Attacking through any combination of Front, Flank & Rear\"";
pub const DRM_RUSSIAN: &str = "Die Roll Modifiers for Shock or Charge: \"+1 Russian Heavy Cavalry stacked with Leader when Attacking\"";
pub const DRM_RETIRED: &str = "Die Roll Modifiers for Shock or Charge: \"+2 Defender is Retired\"";
pub const DRM_CONTINUED: &str =
    "Die Roll Modifiers for Shock or Charge: \"-1 Per each Continued Attack See 12.4\"";
pub const DRM_MATRIX: &str =
    "Die Roll Modifiers for Shock or Charge: \"+/- Weapons System Matrix comparison See above\"";
