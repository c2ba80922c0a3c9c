"""Tests of the HTTP API, one module per resource or concern."""
