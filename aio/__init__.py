"""asyncio helpers: the bottom layer, which imports nothing of the project; every layer but
the pure engine may use it."""
