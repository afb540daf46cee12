"""Arena tournaments: timed events, continuous pairing by standings, live and final standings."""
