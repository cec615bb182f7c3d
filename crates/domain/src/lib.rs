//! Pure league domain: commands to events, invariants.
