//! The chapter's sentences, word for word ("Charging", Grande Tactique):
//! the one place each is written, for refusals, umpire reports and the
//! events that quote the rule they apply. Cases in
//! `tests/cases/grande-tactique/` quote the same words.

pub const ONLY_EAGER: &str =
    "Only eager cavalry and eager infantry not in square and not firing can charge.";
pub const SHAKEN_CANNOT: &str = "Thus shaken troops cannot charge.";
pub const ARTILLERY_CANNOT: &str = "Artillery cannot charge.";
pub const SQUARES_CANNOT: &str = "Squares cannot charge.";
pub const FIRING_CANNOT: &str = "Infantry who are firing cannot charge.";
pub const DECLARED_AND_PAID: &str =
    "Charges must be declared and paid for (with PIPs) in the PIP Phase.";
pub const MARKER: &str = "At that time, charging units have a Charge marker placed them, positioned in such a way as to clearly signal who it is the charging unit is charging.";
pub const TRIANGULAR: &str =
    "(I use triangular Charge markers and position them so as to point at the target.)";
pub const TARGETS_IN_PIP_PHASE: &str =
    "Note that the targets of charges have to be declared in the PIP Phase.";
pub const UNLIKE_FIRING: &str = "This is a different policy than for firing.";
pub const TOGETHER: &str = "Multiple charges on a single target are resolved together (rather than sequentially as for firing).";
pub const PRINCIPAL: &str = "The attacker designates one charging unit as the principal one.";
pub const ALL_ATTACKERS: &str =
    "The results apply immediately to all attackers (e.g. for a failed charge, all become shaken).";
pub const ONLY_PRINCIPAL: &str =
    "Only the principal attacker pursues or performs follow-up charges.";
pub const ONE_COMMAND: &str = "You cannot combine charges with units of different commands.";
pub const OTHER_COMMAND: &str = "If units from more than one command are charging the same enemy unit, choose which command’s units will charge and remove the Charge markers from the unit(s) of the other command, which just sit(s) there.";
pub const ONE_TARGET: &str = "You cannot charge more than one defending unit simultaneously.";
pub const COST: &str = "You can charge if already in contact and not firing (spending 1 PIP), or you can move to contact (spending 1 PIP) and then charge (spending an additional PIP).";
pub const CAVALRY_CONTACT: &str =
    "As noted above under Movement, cavalry cannot move to contact without charging.";
pub const INFANTRY_CONTACT: &str =
    "Infantry, however, may move to contact without charging (or firing).";
pub const BUA: &str = "Cavalry cannot charge through a Built-Up Area, but it may charge around it.";
pub const CHARGING_INFANTRY_FIRE: &str = "Charging infantry cannot fire in the firing phase.";
pub const ARTILLERY_FIRE: &str =
    "Artillery cannot fire on a target that is being charged, but infantry can.";
pub const DEFENDING_FIRE: &str =
    "Defending fire is expressed in charge resolution, there being no defensive fire phase.";
pub const RESOLVING: &str = "Resolving a charge: First roll a Morale Check for the attackers; then, if they pass, roll a Morale Check for the defenders.";
pub const NO_DEFENDER_CHECK: &str =
    "The defenders do not roll a Morale Check if the attackers fail their Morale Check.";
pub const REMOVE_MARKERS: &str = "When the charge is over, remove the Charge marker(s).";
pub const ROUTED_TARGETS: &str = "Charges against routed units are automatically successful, with the results specified under Fleeing & Routing.";
pub const ATTACKER_PASS: &str = "If pass, charge goes ahead: roll Morale Check for defender.";
pub const ATTACKER_FAIL: &str = "If fail, remain in contact and become shaken; defenders start firing if infantry or artillery; if there is only one attacker, they also turn to face.";
pub const COUNTERCHARGE: &str = "Exception: if cavalry fail when attempting to charge cavalry, there is a countercharge: move the charged cavalry to meet the charging cavalry 1/3rd of the way towards the point where the charge began.";
pub const COUNTERCHARGE_FLIGHT: &str = "From there, the charging cavalry flees (11”+2d6) and the charged cavalry pursues it one inch less and becomes shaken.";
pub const LOCKED: &str = "When defending cavalry pass a Morale Check against charging cavalry, or defending infantry pass a Morale Check against charging infantry, both sides are momentarily Locked in Combat and fight it out using the procedure below.";
pub const LOCKED_ROLL: &str = "To resolve a Locked in Combat situation, both sides roll until one beats the other (i.e. reroll ties).";
pub const LOCKED_MODIFIERS: &str = "Ignore all modifiers except the following:";
pub const LOCKED_VETERAN: &str = "Veteran troops receive a +1.";
pub const LOCKED_LANCERS: &str = "Lancers receive a -1.";
pub const LOCKED_RESULTS: &str = "The results are:";
pub const LOSER_FLEES: &str =
    "The loser flees (7\" for infantry, 11\"+(2d6)\" for cavalry; see below).";
pub const WINNING_INFANTRY: &str =
    "Winning infantry “takes the position” (see below) and becomes shaken.";
pub const WINNING_CAVALRY: &str =
    "Winning cavalry pursues (loser's flight distance minus 1\") and becomes shaken.";
pub const ROUT_IN_COVER: &str = "If an infantry unit routs as a result of a lost Locked in Combat resulting from its own charge out of woods or a BUA, it remains (in a Routed state) in the woods or BUA it charged from.";
pub const LOCKED_MARKERS: &str =
    "After a Locked in Combat situation has been resolved, remove any Charge marker(s).";
pub const TAKES_POSITION: &str = "When an attacking unit “takes the position,” it immediately occupies the space vacated by the fleeing enemy and turns to face the direction of flight.";
pub const NOT_OBLIGED: &str = "When told to “take the position,” an attacking unit is not obliged to leave woods, a linear terrain feature, or a Built-Up Area (though it may do so optionally).";
pub const DIAGRAMS: &str = "Note: for diagrams of cavalry charges, follow-up charges, and pursuit, see the Cavalry Charge Diagram Slideshow.";
pub const FOLLOW_UP_CHECK: &str = "When a cavalry unit charges and its target fails a Morale Check, the charging cavalry must perform another Morale Check to see if it pursues or, instead, undertakes a follow-up charge against a new target:";
pub const FOLLOW_UP_FAIL: &str =
    "if it fails, it must pursue their fleeing enemy (see below under Cavalry pursuit);";
pub const FOLLOW_UP_PASS: &str = "if it passes, it must attempt to perform a follow-up charge against a new target as part of the same attack.";
pub const TWO_FOLLOW_UPS: &str =
    "Cavalry can perform no more than two follow-up charges after the initial charge.";
pub const FOLLOW_UP_PENALTIES: &str = "The Morale Check for determining follow-up charges is subject to one of the following penalties:";
pub const FIRST_FOLLOW_UP: &str =
    "For the first follow-up charge, there is a -1 penalty to the Morale Check.";
pub const SECOND_FOLLOW_UP: &str =
    "For the second follow-up charge, there is a -2 penalty to the Morale Check.";
pub const NEW_TARGET: &str = "If the cavalry unit passes the Morale Check and does perform a follow-up charge, it must select a new target that is wholly to its front, visible (attacker can draw lines between each of his two front corners and two corners of the target base), and at least partly within 8” of where its prior target had stood.";
pub const NO_NEW_TARGET: &str =
    "If there is no such target available, the cavalry unit pursues the prior target instead.";
pub const FOLLOW_UP_CONTACT: &str = "In a follow-up charge, the charging cavalry is moved to contact in as straight a line as possible and the charge is immediately resolved, following the Charging proceedures described above.";
pub const FOLLOW_UP_OWN_CHECK: &str = "Note that this means the charging cavalry, once it has passed a Morale Check to determine whether it will perform a follow-up charge or pursue, must roll a Morale Check to see if it goes through with its follow-up charge.";
pub const FOLLOW_UP_EXAMPLE: &str = "Cavalry could, for example, successfully charge a first target, pass the Morale Check to perform a follow-up charge, and then fail the Morale Check when attacking its second target.";
pub const SECOND_CHECK: &str = "If the first follow-up charge is successful, the cavalry unit must roll a Morale Check to see if it performs a second follow-up charge; if the second follow-up charge is also successful, the cavalry automatically pursue.";
pub const OTHER_FRIENDS: &str = "Note: cavalry performing a follow-up charge against a unit that is being charged by other friends do get the morale bonus for charging a target with help from friends, while the target suffers the morale penalty for being charged by more than one unit, provided that the charge by the other unit have not been resolved prior to the cavalry's follow-up charge.";
pub const NOT_TWICE: &str = "When performing a second follow-up charge, charging cavalry cannot charge a unit it has already charged that turn.";
pub const VICTORIOUS_PURSUE: &str =
    "Victorious cavalry pursue the enemy unit they caused to flee or destroyed if they";
pub const PURSUE_FAILED_CHECK: &str =
    "fail the obligatory Morale Check to determine whether they perform a follow-up charge;";
pub const PURSUE_NO_TARGET: &str = "pass the obligatory Morale Check to determine whether they perform a follow-up charge but are unable to find a target;";
pub const PURSUE_AFTER_SECOND: &str =
    "have successfully performed their second follow-up charge that turn.";
pub const PURSUE_LOCK_WON: &str = "win a Locked in Combat situation.";
pub const FRIENDS_FIRST: &str = "First resolve all effects (if any) of a fleeing unit’s passing through friends (see the rules for Fleeing and Routing), then move the pursuing cavalry.";
pub const PURSUIT_PATH: &str = "The pursuing cavalry first occupies the exact position of the unit it caused to flee, then pivots, and then pursues, following the path taken by the fleeing unit.";
pub const PURSUIT_INFANTRY: &str = "The pursuit distance for cavalry pursuing infantry is 6\".";
pub const PURSUIT_CAVALRY: &str = "The pursuit distance for cavalry pursuing cavalry is 1” less than the distance the pursued cavalry has fled (see below under Fleeing and Routing).";
pub const PURSUIT_ENCOUNTER: &str = "If, in pursuing, the cavalry encounter enemy units passed through by the fleeing unit, perform a follow-up charge against them.";
pub const PURSUIT_SECOND: &str = "If this follow-up charge is successful, the cavalry may attempt a second follow-up charge, up to a maximum of three charges (including the initial charge) per turn.";
pub const PURSUIT_SHAKEN: &str =
    "Cavalry who have completed the pursuit move automatically become shaken.";
pub const SURROUNDED: &str = "If a cavalry unit is called on to pursue an enemy unit that was supposed to flee but instead was destroyed because surrounded by enemies, the pursuing cavalry unit instead merely “takes the position” of the destroyed enemy unit, ends its charge immediately, and becomes shaken as the pursuing cavalrymen busy themselves in hunting down the soldiers of the destroyed enemy unit.";
pub const PURSUIT_AFTER_SECOND: &str = "If cavalry are pursuing as a result of their second follow-up charge and encounter enemies, do not perform a charge against them but instead leave the cavalry unit (now shaken) in contact with those enemies.";
pub const PURSUIT_TERRAIN: &str = "Pursuit to terrain: If a cavalry unit is called on to pursue enemies who rout into woods or a Built-Up Area that the pursuing cavalry can reach, the pursuing cavalry unit is moved into contact with that area of woods or Built-Up Area and becomes shaken.";
pub const PURSUIT_OFF_MAP: &str = "Pursuit off the map: If a cavalry unit is called on to pursue enemies who have fled off the map, the pursuing cavalry unit pursues to the point on the edge of the map where the pursued enemies left and is marked shaken.";
pub const ROUTED_DESTROYED: &str = "Pursuit of destroyed routed units: Cavalry charges against routed units are automatically successful and the routed unit is removed from the game and counted as destroyed.";
pub const ROUTED_SUCCESS: &str = "This counts as a successful charge and the charging cavalry can attempt a follow-up charge (in an eager state) if it has not exhausted its limit of three charges per turn.";
pub const ROUTED_PATH: &str = "If the charging cavalry pursues after a successful charge against a routed enemy unit, determine the path the target would have fled along if it had been able to flee and move the pursuing cavalry 6\" along that path, following the rules above for how to handle any enemies it may encounter on that pursuit path.";
pub const CAVALRY_TYPES: &str =
    "The following rules reflect differences in behaviour among various types of cavalry:";
pub const CUIRASSIERS_MOVE: &str =
    "Cuirassiers move at 6” (rather than 9”), though they flee and pursue in the normal way.";
pub const CUIRASSIERS_BONUS: &str = "Cuirassiers receive a +1 morale bonus when charging cavalry";
pub const CUIRASSIERS_NOT_FOLLOW_UP: &str = "This bonus does not apply to Morale Checks when attempting to perform a follow-up charge, or in any other circumstance.";
pub const LANCERS_BONUS: &str = "Lancers receive a +1 morale bonus when charging infantry";
pub const LANCERS_LOCKED: &str =
    "Lancers suffer a -1 penalty to their die roll when Locked in Combat.";

/// Not in the chapter: the rest of the rules, as ruling GT-2 reads them.
pub const SQUARE_INFANTRY_ONLY: &str = "only infantry forms square (ruling GT-2)";
/// "defenders start firing if infantry or artillery": only they fire.
pub const DEFENDERS_START_FIRING: &str = ATTACKER_FAIL;
