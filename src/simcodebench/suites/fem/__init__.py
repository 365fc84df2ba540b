"""The ``fem`` suite: PDEAgent-Bench on DOLFINx and deal.II (manufactured and refined references, the shared
oracle, the importer of the released records)."""
