"""The gateway: authenticates browsers, translates gRPC-web, fans events out per player."""
