"""The deployment run for real: images built here, the compose topology up, faults survived."""
