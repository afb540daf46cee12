"""What every process of the arena speaks, services and clients alike: gRPC-web framing and
status codes, the NATS subjects, the metadata a call carries and the lead of a published
update."""
