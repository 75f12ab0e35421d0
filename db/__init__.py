"""The store: one contract (db.store.Store), two engines (db.sqlite, db.postgres)."""
