"""What `make test` needs of the machine: each tool checked, the missing ones installed."""
