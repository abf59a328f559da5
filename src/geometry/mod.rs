//! Plane geometry on the fixed grid of hundredths of an inch.
//!
//! Conventions, the same in every module:
//! - **Axes.** x runs east and y north; a table's south-west corner is the
//!   origin.
//! - **Lengths** are integer hundredths of an inch ([`Hundredths`]), in and
//!   out. In between, sums are done in `f64`.
//! - **Facings** are whole degrees clockwise from north (+y), as stored on a
//!   [`Rect`]: 0 north, 90 east, 180 south, 270 west. Angles the kernel
//!   measures (bearings, the angle onto a flank, the inner angle of two
//!   units) come back in hundredths of a degree ([`Centidegrees`]), so that
//!   rule thresholds such as 22.5° compare as integers; none is stored.
//! - **Trigonometry** goes through `libm` (sine, cosine, arctangent), never
//!   the platform's, so every machine computes the same bits; `f64::sqrt` is
//!   correctly rounded by IEEE 754 and so deterministic too. Facings that are
//!   a multiple of 90 degrees take exact unit vectors, so the common case is
//!   exact.
//! - **Rounding.** Every length, coordinate or angle handed back is rounded
//!   once, at the end, to the nearest hundredth (of an inch or of a degree),
//!   halves away from zero ([`to_grid`], [`to_centidegrees`]). Tests on grid
//!   points alone (segments crossing, points in polygons, the retreat zone)
//!   are exact integer arithmetic and round nothing.
//! - **Contact.** Two footprints that run into each other by up to
//!   [`CONTACT_SLACK`] touch, they do not overlap (docs/RULINGS.md, STC-26).
//!
//! The modules, one job each: `vector` (the sums and the rounding rule),
//! `rect` (a unit's rectangle), `index` (one spatial index of footprints by
//! cell and by id), `distance`, `arc` (arcs and angles from a
//! point), `fan` (the ground a front commands, widened by an angle at either
//! end; the corridor a line of fire runs along; fire through both flanks), `frontage` (figures along the front, the frontage line, enfilade,
//! mutually protected flanks), `motion` (moves, wheels, facing changes,
//! paths), `sweep` (what a move passes through), `retreat` (the retreat
//! zone), `polygon` (terrain lines and areas), `sight` (line of sight), `route`
//! (routes as lists of points: a fraction of the way, a prefix, where one
//! leaves the table or enters an area, a way round an area), `side` (the
//! sides of a rectangle and a piece set against one), `bounce`
//! (the optional Artillery Bounce-Through line); and `hex`, the hex maps'
//! own geometry (distance, neighbours, hexsides and facing, lines between
//! hexes, paths, drawing layout), with its own conventions.

mod arc;
mod bounce;
mod convex;
mod distance;
mod fan;
mod frontage;
mod hex;
mod index;
mod motion;
mod occupancy;
mod point;
mod polygon;
mod rect;
mod retreat;
mod route;
mod side;
mod sight;
mod sweep;
#[cfg(test)]
mod testgen;
mod vector;

pub use arc::{
    ARC_OF_FIRE, angle_between_facings, angle_off_facing, is_in_arc, rect_is_in_arc,
    rect_is_wholly_in_arc,
};
pub use bounce::{bounce_through_line, segment_touches_rect};
pub use distance::{
    distance, distance_to_rect, distance_to_segment, is_within, leaves_gap, nearest_point_of_rect,
    nearest_point_of_segment, point_is_within_rect, rect_distance, rect_is_within,
};
pub use fan::{Fan, corridor_overlaps, passes_through_both_flanks};
pub use frontage::{
    ENFILADE_ANGLE, PROTECTED_CORNER_GAP, angle_onto_frontage_line, any_part_behind_frontage_line,
    are_mutually_protected, distance_ahead_of_frontage_line, figure_front_centres, inner_angle,
    is_behind_frontage_line, is_enfiladed, near_corner_gap,
};
pub use hex::{Direction, Hex, HexGrid, HexLayout, Hexside, LineStep, NotAdjacent, path_sides};
pub use index::{Grid, SpatialIndex, bounds};
pub use motion::{
    FacingChange, Flank, OBLIQUE_ANGLE, Path, Step, backstep, change_facing, follow, move_forward,
    oblique, sidestep, wheel, wheel_angle_for, wheel_arc_length,
};
pub use occupancy::Occupancy;
pub use point::{Hundredths, Point};
pub use polygon::{
    far_side_along, length_inside_polygon, on_segment, point_in_polygon, polygons_meet,
    polygons_overlap, rect_inside_polygon, rect_intersects_polygon, segment_crosses_polyline,
    segments_intersect,
};
pub use rect::{CONTACT_SLACK, Rect};
pub use retreat::{RETREAT_ZONE_LENGTH, RetreatZone, direction_away};
pub use route::{entry_along, point_between, route_around, route_length, route_prefix, table_exit};
pub use side::{Side, facing_onto, set_against, side_length, side_towards};
pub use sight::{is_sight_blocked, is_sight_blocked_by_lines, sees_through, sees_two_corners};
pub use sweep::{
    TURN_SLICE, facing_change_hits, first_hit_along, move_hits, path_hits, straight_move_hits,
    wheel_hits,
};
pub use vector::{Centidegrees, FULL_TURN, bearing, to_centidegrees, to_grid};

/// Whether a point lies on a table `width` by `depth`, edges included.
pub fn is_on_table(p: Point, width: Hundredths, depth: Hundredths) -> bool {
    (0..=width).contains(&p.x) && (0..=depth).contains(&p.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use testgen::pt;

    #[test]
    fn points_on_the_table() {
        assert!(is_on_table(pt(0, 0), 7200, 4800));
        assert!(is_on_table(pt(7200, 4800), 7200, 4800));
        assert!(!is_on_table(pt(-1, 10), 7200, 4800));
        assert!(!is_on_table(pt(10, 4801), 7200, 4800));
    }
}
