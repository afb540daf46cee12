"""The rules service: stateless gRPC over the pure game engines in ``engine/``."""
