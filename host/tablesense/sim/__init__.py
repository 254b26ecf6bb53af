"""The virtual table: physics, sensors, simulated players, firmware in the loop."""
