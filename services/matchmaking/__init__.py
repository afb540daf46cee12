"""Matchmaking: queues, private challenges, matches against the computer and hot-seat."""
