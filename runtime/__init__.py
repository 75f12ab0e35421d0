"""The process's own life: start-up checks, the event loop, signals and stop, the heartbeat,
shard leases and sharding, and the launcher for a Python without the bot's packages."""
