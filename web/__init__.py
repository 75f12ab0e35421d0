"""The bot's own HTTP server: health for load balancers, and the routes features add to it."""
