"""Request and response models of the public API (camelCase where the spec says so)."""
