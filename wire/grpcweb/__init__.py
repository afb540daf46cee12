"""gRPC-web as it travels: frames, the trailer block, status codes and metadata lines."""
