"""The HTTP skin: middleware, schemas, routes. Routes parse, call one domain function, shape."""

API_PREFIX = "/api/v1"
