"""The HTTP skin: middleware, schemas, routes. Routes parse, call one domain function, shape."""
