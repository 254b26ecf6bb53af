"""The pub's web app: TV scoreboards, the referee panel, match history (aiohttp)."""
