"""The formats every process of the arena speaks, services and clients alike."""
