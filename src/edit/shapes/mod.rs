//! Shapes laid over the ground as a whole rather than dab by dab: a road along a curve (its
//! geometry and its `road` operation) and a chosen set of vertices raised, set, planed or
//! smoothed together.
//!
//! Not for: brush dabs (`edit::terrain`) or the plane and ramp line the brushes aim at
//! (`edit::terrain::plane`, `edit::terrain::ramp_line`), which these shapes use.

pub mod road;
pub mod road_ops;
pub mod selection;
