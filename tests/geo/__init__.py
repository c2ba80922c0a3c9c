"""Tests of the geo library: conversions run on tiny real files written by each test."""
