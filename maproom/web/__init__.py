"""The live and static map pages: templates, our own ES modules, and MapLibre's files."""
