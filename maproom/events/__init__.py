"""Live delivery of each project's event log to open streams (`hub.LiveHub`)."""
