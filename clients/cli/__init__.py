"""The terminal client: sign in, pick a game from a menu, watch a board, type commands."""
