"""Storage adapters: the relational database, the blob store."""
