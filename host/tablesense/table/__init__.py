"""Table profiles: sensor channels per table type, board configuration and wiring."""

from .profile import Channel, ProfileError, TableProfile, board_config, load_profile, profile_ids

__all__ = ["Channel", "ProfileError", "TableProfile", "board_config", "load_profile", "profile_ids"]
