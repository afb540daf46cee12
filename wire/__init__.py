"""What every process of the arena shares, services and clients alike: the formats it speaks
(gRPC-web, NATS subjects, log lines) and how it is told to stop."""
