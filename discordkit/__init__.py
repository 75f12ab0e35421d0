"""The discord.py kit that cogs and delivery share: custom ids and their dispatch, view
builders, REST helpers, message conversion, languages, answers and the command sync. It
imports no cog and nothing of delivery."""
