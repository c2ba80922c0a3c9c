"""Tests of maproom, mirroring the package."""
